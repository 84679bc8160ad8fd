<?php
/**
 * A request to `localhost` or a `*.localhost` name, sent to 127.0.0.1 without asking DNS, as browsers do: whoever
 * answers DNS on the network must not choose where the token goes.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A request to `localhost` or a `*.localhost` name, sent to 127.0.0.1 without asking DNS.
 */
final class Localhost_Request {

	/**
	 * Sends with cURL told the name's address (CURLOPT_RESOLVE): the Host header, and over https the name the
	 * certificate is checked against, stay the URL's. WordPress sends with cURL whenever PHP has it; without it the
	 * request is refused, since the other transport would ask DNS.
	 *
	 * @param string               $url  A URL whose host is a localhost name (Base_Url::is_localhost_name()).
	 * @param array<string, mixed> $args Arguments of wp_remote_request().
	 * @return array<string, mixed>|WP_Error
	 */
	public static function send( $url, array $args ) {
		if ( ! function_exists( 'curl_init' ) || ! function_exists( 'curl_exec' ) ) {
			return new WP_Error( 'http_request_failed', __( 'A localhost instance URL needs the PHP cURL extension, or use http://127.0.0.1 instead.', 'sitebeam' ) );
		}
		$parts  = wp_parse_url( $url );
		$scheme = strtolower( $parts['scheme'] ?? 'http' );
		$port   = $parts['port'] ?? ( 'https' === $scheme ? 443 : 80 );
		$entry  = strtolower( (string) ( $parts['host'] ?? '' ) ) . ':' . $port . ':127.0.0.1';
		$pin    = static function ( $handle ) use ( $entry ) {
			curl_setopt( $handle, CURLOPT_RESOLVE, array( $entry ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.curl_curl_setopt -- the HTTP API has no option for a name's address.
		};
		add_action( 'http_api_curl', $pin );
		try {
			return wp_remote_request( $url, $args );
		} finally {
			remove_action( 'http_api_curl', $pin );
		}
	}
}
