<?php
/**
 * The page a visitor without JavaScript gets after posting the chat form: the answer (or what went wrong, with the
 * message kept) and the form again, posting to the same route.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Body_Kind;
use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Endpoint\Origin_Rule;
use WP_HTTP_Response;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The page a visitor without JavaScript gets after posting the chat form.
 */
final class Chat_Page {

	const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

	/**
	 * Serves a form post's answer as an HTML page instead of JSON, with the same status.
	 *
	 * @param bool             $served  Whether the response was already served.
	 * @param WP_HTTP_Response $result  The response.
	 * @param WP_REST_Request  $request The request.
	 */
	public function filter_serve_form_post( $served, $result, $request ) {
		if ( $served || ! Chat_Controller::is_chat_route( $request ) || 'POST' !== $request->get_method() || ! Body_Kind::is_form_post( $request ) ) {
			return $served;
		}
		header( 'Content-Type: text/html; charset=utf-8' );
		header( 'Content-Security-Policy: ' . self::CONTENT_SECURITY_POLICY );
		echo self::render( (array) $result->get_data(), $request ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- every part is escaped in the template.
		return true;
	}

	/**
	 * The page for an answer or a refusal.
	 *
	 * @param array<string, mixed> $outcome The JSON answer.
	 * @param WP_REST_Request      $request The form post.
	 */
	public static function render( array $outcome, WP_REST_Request $request ) {
		$posted   = $request->get_body_params();
		$answered = Contract::STATUS_OK === ( $outcome[ Contract::RESPONSE_FIELD_STATUS ] ?? '' );
		$message  = is_string( $posted[ Contract::CHAT_FIELD_MESSAGE ] ?? null ) ? $posted[ Contract::CHAT_FIELD_MESSAGE ] : '';
		$chosen   = is_string( $posted[ Contract::CHAT_FIELD_MODEL ] ?? null ) ? $posted[ Contract::CHAT_FIELD_MODEL ] : '';
		$referer  = (string) $request->get_header( 'referer' );
		$back     = '' !== $referer && Origin_Rule::is_own_origin( $referer ) ? $referer : '';
		$form     = array(
			'id'      => 'sitebeam-chat-page',
			'models'  => Chat_Config::models(),
			'message' => $answered ? '' : $message,
			'chosen'  => $chosen,
			'consent' => Consent_Rule::of( Consent_Rule::CHAT ),
			'ticked'  => Consent_Rule::is_given( $posted[ Contract::CHAT_FIELD_CONSENT ] ?? null ),
		);
		ob_start();
		include SITEBEAM_PLUGIN_DIR . '/templates/chat-page.php';
		return (string) ob_get_clean();
	}
}
