<?php
/**
 * REST route sitebeam/v1/contact: the contact protocol's endpoint, holding the token and choosing the recipient.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * REST route sitebeam/v1/contact: the contact protocol's endpoint, holding the token and choosing the recipient.
 */
final class Rest_Controller {

	const NAMESPACE_V1     = 'sitebeam/v1';
	const ROUTE            = '/contact';
	const MIN_FILL_SECONDS = 3;

	/**
	 * The route’s address.
	 */
	public static function url() {
		return rest_url( self::NAMESPACE_V1 . self::ROUTE );
	}

	/**
	 * Whether a request is for this route.
	 *
	 * @param mixed $request A request.
	 */
	public static function is_contact_route( $request ) {
		return $request instanceof WP_REST_Request && '/' . self::NAMESPACE_V1 . self::ROUTE === untrailingslashit( $request->get_route() );
	}

	/**
	 * Whether a request posts to this route.
	 *
	 * @param mixed $request A request.
	 */
	public static function is_contact_post( $request ) {
		return self::is_contact_route( $request ) && 'POST' === $request->get_method();
	}

	/**
	 * Registers the route and the filters that guard and shape it.
	 */
	public function register() {
		$guard = new Request_Guard();
		register_rest_route(
			self::NAMESPACE_V1,
			self::ROUTE,
			array(
				array(
					'methods'             => 'POST',
					'callback'            => array( $this, 'handle' ),
					'permission_callback' => array( $guard, 'check_origin_and_nonce' ),
					'args'                => Field_Rules::rest_args(),
				),
				array(
					'methods'             => array( 'GET', 'PUT', 'PATCH', 'DELETE' ),
					'callback'            => array( $this, 'refuse_method' ),
					'permission_callback' => '__return_true',
				),
			)
		);
		$responses = new Protocol_Response();
		add_filter( 'rest_request_before_callbacks', array( $guard, 'filter_rest_request_before_callbacks' ), 10, 3 );
		add_filter( 'rest_request_after_callbacks', array( $responses, 'filter_error_shape' ), 10, 3 );
		add_filter( 'rest_pre_serve_request', array( $responses, 'filter_serve_form_post' ), 10, 3 );
	}

	/**
	 * Answers a method other than POST.
	 */
	public function refuse_method() {
		return Protocol_Response::error( 'method_not_allowed', __( 'Send the form with POST.', 'sitebeam' ), 405 );
	}

	/**
	 * Sends a validated post to the configured recipient.
	 *
	 * @param WP_REST_Request $request The validated post.
	 * @return WP_REST_Response|WP_Error
	 */
	public function handle( WP_REST_Request $request ) {
		if ( '' !== (string) $request->get_param( 'homepage' ) || self::sent_too_fast( $request->get_param( 'started_at' ) ) ) {
			return Protocol_Response::error( 'spam_suspected', __( 'The message looks automated and was not sent.', 'sitebeam' ), 400 );
		}
		$settings  = Settings::get();
		$client    = Api_Client::from_settings();
		$recipient = (string) $settings['contact_to'];
		if ( ! $client->is_configured() || ! is_email( $recipient ) ) {
			return Protocol_Response::error( 'not_configured', __( 'The contact form is not configured yet.', 'sitebeam' ), 503 );
		}

		$page    = self::referring_page( $request );
		$message = Contact_Message::compose(
			array(
				'name'    => (string) $request->get_param( 'name' ),
				'email'   => (string) $request->get_param( 'email' ),
				'subject' => (string) $request->get_param( 'subject' ),
				'message' => (string) $request->get_param( 'message' ),
				'page'    => $page,
			),
			$recipient
		);
		$result  = $client->send_email( $message );
		if ( is_wp_error( $result ) ) {
			Send_Log::record( array( $recipient ), $message[ Api_Client::FIELD_SUBJECT ], Send_Log::FAILED, Api_Messages::describe( $result ) );
			return self::upstream_error( $result );
		}
		Send_Log::record( array( $recipient ), $message[ Api_Client::FIELD_SUBJECT ], Send_Log::SENT );

		if ( Protocol_Response::is_form_post( $request ) ) {
			$response = new WP_REST_Response( null, 303 );
			$response->header( 'Location', add_query_arg( 'sent', '1', '' !== $page ? $page : home_url( '/' ) ) );
			return $response;
		}
		return new WP_REST_Response(
			array(
				'status'  => 'ok',
				'message' => (string) $settings['contact_success'],
			),
			200
		);
	}

	/**
	 * The visitor never sees the API's own text: credentials problems read as "not configured", the rest as a retry.
	 *
	 * @param WP_Error $error From Api_Client.
	 */
	private static function upstream_error( WP_Error $error ) {
		$code = $error->get_error_code();
		if ( Api_Client::ERROR_RATE_LIMITED === $code ) {
			$data = (array) $error->get_error_data();
			return Protocol_Response::error( 'rate_limited', __( 'Too many messages: please try again in a minute.', 'sitebeam' ), 429, null, max( 1, (int) ( $data['retry_after'] ?? 60 ) ) );
		}
		if ( in_array( $code, Api_Client::CREDENTIALS_ERRORS, true ) || Api_Client::ERROR_EMAIL_DISABLED === $code ) {
			return Protocol_Response::error( 'not_configured', __( 'The contact form is not configured yet.', 'sitebeam' ), 503 );
		}
		return Protocol_Response::error( 'upstream_failed', __( 'The message could not be sent right now: please try again.', 'sitebeam' ), 502 );
	}

	/**
	 * `started_at` is the visitor's clock: a time in the future is not held against them, a non-number is.
	 *
	 * @param mixed $started_at Milliseconds since the epoch when the widget started, if it said.
	 */
	private static function sent_too_fast( $started_at ) {
		if ( null === $started_at || '' === $started_at ) {
			return false;
		}
		if ( ! is_numeric( $started_at ) ) {
			return true;
		}
		$elapsed_ms = microtime( true ) * 1000 - (float) $started_at;
		return $elapsed_ms >= 0 && $elapsed_ms < self::MIN_FILL_SECONDS * 1000;
	}

	/**
	 * The page the form was on.
	 *
	 * @param WP_REST_Request $request The post.
	 * @return string The page the form was on, when it is on this site; '' otherwise.
	 */
	private static function referring_page( WP_REST_Request $request ) {
		$referer = (string) $request->get_header( 'referer' );
		if ( '' === $referer ) {
			return '';
		}
		return (string) wp_validate_redirect( esc_url_raw( remove_query_arg( 'sent', $referer ) ), '' );
	}
}
