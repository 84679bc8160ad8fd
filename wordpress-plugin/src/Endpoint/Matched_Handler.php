<?php
/**
 * Which of the plugin's routes WordPress dispatched a request to, read from the handler it matched, never from the
 * path: WordPress matches routes without regard to case (`@^route$@i`), from /wp-json/… or ?rest_route=…, so a
 * comparison of the path string misses /CONTACT, which still reaches the route's callback.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Which of the plugin's routes WordPress dispatched a request to, read from the handler it matched.
 */
final class Matched_Handler {

	/**
	 * Whether a handler's callback is a method of an instance of a class (a route's controller).
	 *
	 * @param mixed  $handler    A handler as register_rest_route() registered it, or anything.
	 * @param string $controller A class name.
	 */
	public static function is_of( $handler, $controller ) {
		$callback = is_array( $handler ) ? ( $handler['callback'] ?? null ) : null;
		return is_array( $callback ) && ( $callback[0] ?? null ) instanceof $controller;
	}

	/**
	 * Whether WordPress matched a request to one of a controller's handlers: set from the handler it dispatches to
	 * (WP_REST_Server::match_request_to_handler), and for a pre-flight from the route's last handler
	 * (rest_handle_options_request, on rest_pre_dispatch before the plugin's own filters).
	 *
	 * @param mixed  $request    A request.
	 * @param string $controller A class name.
	 */
	public static function request_is_for( $request, $controller ) {
		return $request instanceof WP_REST_Request && self::is_of( $request->get_attributes(), $controller );
	}
}
