<?php
/**
 * The address a public endpoint's rate limit counts a visitor by: an IPv4 address, or an IPv6 address's /64.
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

	/**
	 * What the rate limits count an address as (contract/contact-protocol.md): an IPv6 address by its /64, which one
	 * subscriber holds whole and can rotate through at will; an IPv4 address (mapped into IPv6 or not) as itself;
	 * anything else as it is.
	 *
	 * @param string $address An address.
	 */
	public static function counted_as( $address ) {
		$bare = trim( $address, '[]' );
		if ( false === filter_var( $bare, FILTER_VALIDATE_IP, FILTER_FLAG_IPV6 ) ) {
			return $address;
		}
		$packed = (string) inet_pton( $bare );
		if ( 0 === strpos( $packed, str_repeat( "\0", 10 ) . "\xff\xff" ) ) {
			return (string) inet_ntop( substr( $packed, 12 ) );
		}
		return inet_ntop( substr( $packed, 0, 8 ) . str_repeat( "\0", 8 ) ) . '/64';
	}
}
