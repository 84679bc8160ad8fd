<?php
/**
 * Checks on a contact post that come before its fields: rate, media type, size, origin and nonce.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use WP_Error;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Checks on a contact post that come before its fields: rate, media type, size, origin and nonce.
 */
final class Request_Guard {

	const MAX_BODY_BYTES = 65536;

	/**
	 * Runs before the route's callback and after argument validation, whose error it overrides: every post counts
	 * towards the rate, and a body the route cannot read must not be reported as missing fields.
	 *
	 * @param mixed           $response Null, or the argument validation error.
	 * @param array           $handler  Route handler.
	 * @param WP_REST_Request $request  The request.
	 */
	public function filter_rest_request_before_callbacks( $response, $handler, $request ) {
		if ( ! Rest_Controller::is_contact_post( $request ) ) {
			return $response;
		}
		$retry_after = Rate_Limiter::hit( self::visitor_ip() );
		if ( $retry_after > 0 ) {
			return Protocol_Response::error( 'rate_limited', __( 'Too many messages: please try again in a minute.', 'sitebeam' ), 429, null, $retry_after );
		}
		$type = $request->get_content_type();
		if ( ! is_array( $type ) || ! in_array( $type['value'], array( Protocol_Response::JSON_TYPE, Protocol_Response::FORM_TYPE ), true ) ) {
			return Protocol_Response::error( 'unsupported_media_type', __( 'The form must be sent as JSON or as a regular form post.', 'sitebeam' ), 415 );
		}
		if ( strlen( (string) $request->get_body() ) > self::MAX_BODY_BYTES ) {
			return Protocol_Response::error( 'payload_too_large', __( 'The message is too long.', 'sitebeam' ), 413 );
		}
		if ( Protocol_Response::JSON_TYPE === $type['value'] && ! is_array( json_decode( (string) $request->get_body(), true ) ) ) {
			return Protocol_Response::error( 'invalid_field', __( 'The form data could not be read.', 'sitebeam' ), 400 );
		}
		return $response;
	}

	/**
	 * The route's permission callback. The browser says where the post comes from in Origin, or failing that
	 * in Referer; a client sending neither is judged on the nonce alone.
	 *
	 * @param WP_REST_Request $request The post.
	 * @return true|WP_Error
	 */
	public function check_origin_and_nonce( WP_REST_Request $request ) {
		$origin = $request->get_header( 'origin' );
		$source = null !== $origin ? $origin : $request->get_header( 'referer' );
		if ( null !== $source && ! self::is_own_origin( $source ) ) {
			return Protocol_Response::error( 'forbidden_origin', __( 'This form can only be sent from its own site.', 'sitebeam' ), 403 );
		}
		if ( ! Form_Nonce::verify( (string) $request->get_param( Form_Nonce::FIELD ) ) ) {
			return Protocol_Response::error( 'forbidden_origin', __( 'The form has expired: reload the page and send it again.', 'sitebeam' ), 403 );
		}
		return true;
	}

	/**
	 * Whether an Origin or Referer is this site.
	 *
	 * @param string $url An Origin or Referer.
	 */
	private static function is_own_origin( $url ) {
		$home = wp_parse_url( home_url() );
		$seen = wp_parse_url( $url );
		if ( ! is_array( $home ) || ! is_array( $seen ) || empty( $seen['host'] ) ) {
			return false;
		}
		return strtolower( $home['scheme'] ?? '' ) === strtolower( $seen['scheme'] ?? '' )
			&& strtolower( $home['host'] ?? '' ) === strtolower( $seen['host'] )
			&& ( $home['port'] ?? null ) === ( $seen['port'] ?? null );
	}

	/**
	 * The address the rate limit counts by.
	 */
	private static function visitor_ip() {
		$remote_addr = isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
		/**
		 * Filters the address the contact rate limit counts by; sites behind a trusted proxy return the forwarded one.
		 *
		 * @param string $remote_addr The socket's address.
		 */
		return (string) apply_filters( 'sitebeam_visitor_ip', $remote_addr );
	}
}
