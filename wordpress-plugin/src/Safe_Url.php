<?php
/**
 * Why WordPress's safe requests refuse an instance URL for good (a private or loopback address, a port other than
 * 80, 443 and 8080, a localhost name): a refusal no retry can cure, so mail fails at once and the owner is told.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Why WordPress's safe requests refuse an instance URL for good.
 */
final class Safe_Url {

	/**
	 * Why a request to the URL is refused before it is sent, in words, or null when it is not (or when only its name
	 * does not resolve right now, which may pass). Only for a client that keeps to safe requests: wp-config.php's
	 * SITEBEAM_ALLOW_PRIVATE_HOSTS lifts them.
	 *
	 * @param string $url An instance URL (Base_Url::problem() is null for it).
	 * @return string|null
	 */
	public static function refusal( $url ) {
		$host = strtolower( (string) wp_parse_url( $url, PHP_URL_HOST ) );
		if ( Base_Url::is_localhost_name( $host ) ) {
			/* translators: %s: the wp-config.php constant. */
			return sprintf( __( 'a localhost instance URL is used only when wp-config.php defines %s as true', 'sitebeam' ), Settings::ALLOW_PRIVATE_HOSTS_CONSTANT );
		}
		if ( '' === $host || false !== wp_http_validate_url( $url ) ) {
			return null;
		}
		$port = (int) wp_parse_url( $url, PHP_URL_PORT );
		/** This filter is documented in wp-includes/http.php */
		$ports = (array) apply_filters( 'http_allowed_safe_ports', array( 80, 443, 8080 ), $host, $url ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own filter, read as wp_http_validate_url() reads it.
		if ( 0 !== $port && ! in_array( $port, array_map( 'intval', $ports ), true ) ) {
			/* translators: %d: a port number. */
			return sprintf( __( 'WordPress sends such requests only to ports 80, 443 and 8080, not to port %d', 'sitebeam' ), $port );
		}
		if ( '[' === substr( $host, 0, 1 ) ) {
			return __( 'WordPress sends such requests to no IPv6 address written in the URL: use the instance’s name', 'sitebeam' );
		}
		$address = filter_var( $host, FILTER_VALIDATE_IP ) ? $host : gethostbyname( $host );
		if ( $address === $host && ! filter_var( $host, FILTER_VALIDATE_IP ) ) {
			return null;
		}
		/* translators: %s: an IP address. */
		return sprintf( __( 'its address, %s, is private or this machine’s own, where WordPress sends no such request', 'sitebeam' ), $address );
	}

	/**
	 * The whole sentence for the owner: what is refused, and the two ways to fix it.
	 *
	 * @param string $url    The instance URL.
	 * @param string $reason What refusal() said.
	 */
	public static function explain( $url, $reason ) {
		/* translators: 1: the instance URL, 2: why it is refused, 3: the wp-config.php line that allows private hosts. */
		return sprintf( __( 'WordPress refuses to send to the instance URL %1$s: %2$s. Use the instance’s public https address (port 443), or, if the instance is on your own network on purpose, add %3$s to wp-config.php.', 'sitebeam' ), $url, $reason, 'define( \'' . Settings::ALLOW_PRIVATE_HOSTS_CONSTANT . '\', true );' );
	}
}
