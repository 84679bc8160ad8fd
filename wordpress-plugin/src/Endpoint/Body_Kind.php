<?php
/**
 * The two kinds of body a public endpoint reads: JSON (the widgets) and a regular form post (no JavaScript).
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The two kinds of body a public endpoint reads: JSON (the widgets) and a regular form post (no JavaScript).
 */
final class Body_Kind {

	const JSON = 'application/json';
	const FORM = 'application/x-www-form-urlencoded';

	/**
	 * The request's media type when it is one of the two, else null.
	 *
	 * @param WP_REST_Request $request A request.
	 * @return string|null self::JSON, self::FORM or null.
	 */
	public static function of( WP_REST_Request $request ) {
		$type = $request->get_content_type();
		return is_array( $type ) && in_array( $type['value'], array( self::JSON, self::FORM ), true ) ? $type['value'] : null;
	}

	/**
	 * Whether a request is a regular form post (no JavaScript).
	 *
	 * @param WP_REST_Request $request A request.
	 */
	public static function is_form_post( WP_REST_Request $request ) {
		return self::FORM === self::of( $request );
	}
}
