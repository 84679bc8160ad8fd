<?php
/**
 * Shapes every answer of the contact route as contract/contact-protocol.md says: JSON errors with i18n_code and field,
 * and for posts without JavaScript a redirect back or a small HTML page.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Body_Kind;
use WP_Error;
use WP_HTTP_Response;
use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Shapes every answer of the contact route as contract/contact-protocol.md says: JSON errors with i18n_code and field, and for
 * posts without JavaScript a redirect back or a small HTML page.
 */
final class Protocol_Response {

	/**
	 * A protocol error, with the status the contract gives its code.
	 *
	 * @param string      $code        Protocol i18n_code (Contract::CONTACT_ERROR_*).
	 * @param string      $message     Text a visitor may read.
	 * @param string|null $field       The field at fault.
	 * @param int         $retry_after Seconds, for 429.
	 */
	public static function error( $code, $message, $field = null, $retry_after = 0 ) {
		$data = array( 'status' => Contract::CONTACT_ERROR_STATUS[ $code ] );
		if ( null !== $field ) {
			$data['field'] = $field;
		}
		if ( $retry_after > 0 ) {
			$data['retry_after'] = $retry_after;
		}
		return new WP_Error( $code, $message, $data );
	}

	/**
	 * Gives the route’s errors the protocol’s JSON shape.
	 *
	 * @param WP_REST_Response|WP_Error|mixed $response Result of the route.
	 * @param array                           $handler  Route handler.
	 * @param WP_REST_Request                 $request  The request.
	 */
	public function filter_error_shape( $response, $handler, $request ) {
		if ( ! Rest_Controller::is_contact_route( $request ) || ! is_wp_error( $response ) ) {
			return $response;
		}
		$data   = (array) $response->get_error_data();
		$code   = $response->get_error_code();
		$status = (int) ( $data['status'] ?? 400 );
		$field  = $data['field'] ?? null;
		$text   = $response->get_error_message();
		if ( in_array( $code, array( 'rest_invalid_param', 'rest_missing_callback_param' ), true ) ) {
			$fault  = Field_Rules::first_fault( $request );
			$field  = $fault ? $fault[0] : null;
			$text   = $fault ? $fault[1] : __( 'Please fill in every required field.', 'sitebeam' );
			$code   = Contract::CONTACT_ERROR_INVALID_FIELD;
			$status = 400;
		}
		$body = array(
			Contract::RESPONSE_FIELD_STATUS    => Contract::STATUS_KO,
			Contract::RESPONSE_FIELD_ERROR     => $text,
			Contract::RESPONSE_FIELD_I18N_CODE => $code,
		);
		if ( null !== $field ) {
			$body[ Contract::CONTACT_RESPONSE_FIELD_FIELD ] = $field;
		}
		$shaped = new WP_REST_Response( $body, $status );
		if ( ! empty( $data['retry_after'] ) ) {
			$shaped->header( 'Retry-After', (string) (int) $data['retry_after'] );
		}
		if ( ! empty( $data['allow'] ) ) {
			$shaped->header( 'Allow', (string) $data['allow'] );
		}
		return $shaped;
	}

	/**
	 * A post without JavaScript gets its redirect with no body, or an HTML page that says what went wrong.
	 *
	 * @param bool             $served  Whether the response was already served.
	 * @param WP_HTTP_Response $result  The response.
	 * @param WP_REST_Request  $request The request.
	 */
	public function filter_serve_form_post( $served, $result, $request ) {
		if ( $served || ! Rest_Controller::is_contact_route( $request ) || ! Body_Kind::is_form_post( $request ) ) {
			return $served;
		}
		if ( $result->get_status() < 400 ) {
			return true;
		}
		$data = (array) $result->get_data();
		$back = wp_validate_redirect( esc_url_raw( (string) $request->get_header( 'referer' ) ), home_url( '/' ) );
		header( 'Content-Type: text/html; charset=utf-8' );
		printf(
			'<!doctype html><html lang="%1$s"><meta charset="utf-8"><meta name="robots" content="noindex"><title>%2$s</title><h1>%2$s</h1><p>%3$s</p><p><a href="%4$s">%5$s</a></p></html>',
			esc_attr( get_bloginfo( 'language' ) ),
			esc_html__( 'Your message was not sent', 'sitebeam' ),
			esc_html( (string) ( $data['error'] ?? '' ) ),
			esc_url( $back ),
			esc_html__( 'Back to the form (your browser’s Back button keeps what you typed)', 'sitebeam' )
		);
		return true;
	}
}
