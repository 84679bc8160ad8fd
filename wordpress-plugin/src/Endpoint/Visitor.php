<?php
/**
 * The address a public endpoint's rate limit counts a visitor by.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The address a public endpoint's rate limit counts a visitor by.
 */
final class Visitor {

	/**
	 * The visitor's address: the socket's, unless a filter says otherwise.
	 */
	public static function address() {
		$remote_addr = isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
		/**
		 * Filters the address the contact and chat rate limits count by; sites behind a trusted proxy return the
		 * forwarded one.
		 *
		 * @param string $remote_addr The socket's address.
		 */
		return (string) apply_filters( 'sitebeam_visitor_ip', $remote_addr );
	}
}
