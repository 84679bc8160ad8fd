<?php
/**
 * The Origin/Referer rule of the public endpoints (contract/contact-protocol.md): a present Origin must be this
 * site's (`null` is not); without it, a present Referer must be on this site; with neither, the request is judged
 * on its content.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The Origin/Referer rule of the public endpoints.
 */
final class Origin_Rule {

	/**
	 * Whether the page a request comes from may use the endpoint.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public static function allows( WP_REST_Request $request ) {
		$origin = $request->get_header( 'origin' );
		$source = null !== $origin ? $origin : $request->get_header( 'referer' );
		return null === $source || self::is_own_origin( $source );
	}

	/**
	 * The answer to the CORS pre-flight of a page the rule allows: the endpoints' methods and request headers.
	 */
	public static function preflight_answer() {
		$response = new WP_REST_Response( null, 204 );
		$response->header( 'Access-Control-Allow-Methods', 'GET, POST' );
		$response->header( 'Access-Control-Allow-Headers', 'content-type, accept' );
		return $response;
	}

	/**
	 * Whether an Origin or Referer is this site.
	 *
	 * @param string $url An Origin or Referer.
	 */
	public static function is_own_origin( $url ) {
		$home = wp_parse_url( home_url() );
		$seen = wp_parse_url( $url );
		if ( ! is_array( $home ) || ! is_array( $seen ) || empty( $seen['host'] ) ) {
			return false;
		}
		return strtolower( $home['scheme'] ?? '' ) === strtolower( $seen['scheme'] ?? '' )
			&& strtolower( $home['host'] ?? '' ) === strtolower( $seen['host'] )
			&& ( $home['port'] ?? null ) === ( $seen['port'] ?? null );
	}
}
