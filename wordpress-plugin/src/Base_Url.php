<?php
/**
 * Where the API token may be sent: a bare https origin, or plain http only to this machine
 * (the same rule as the typed client's snippet/src/client/base-url.ts).
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Where the API token may be sent: a bare https origin, or plain http only to this machine (the same rule as the
 * typed client's snippet/src/client/base-url.ts).
 */
final class Base_Url {

	/**
	 * Whether a host names this machine: `localhost`, `*.localhost`, 127.0.0.0/8 or `::1`.
	 *
	 * @param string $host Host, IPv6 with or without brackets.
	 */
	public static function is_loopback_host( $host ) {
		if ( self::is_localhost_name( $host ) ) {
			return true;
		}
		$host = strtolower( trim( (string) $host, '[]' ) );
		if ( '::1' === $host || '0:0:0:0:0:0:0:1' === $host ) {
			return true;
		}
		return 1 === preg_match( '/^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/', $host );
	}

	/**
	 * Whether a host is `localhost` or a name under it: this machine by definition (RFC 6761), never asked of DNS.
	 *
	 * @param string $host Host.
	 */
	public static function is_localhost_name( $host ) {
		$host = strtolower( (string) $host );
		return 'localhost' === $host || '.localhost' === substr( $host, -10 );
	}

	/**
	 * Why a base URL cannot carry the token, or null when it can. The API's paths are the same on every
	 * instance, so a path, query, fragment or user info can only misroute the token.
	 *
	 * @param string $url Candidate base URL.
	 * @return string|null A sentence for the site owner, or null.
	 */
	public static function problem( $url ) {
		$url   = (string) $url;
		$parts = wp_parse_url( $url );
		$valid = is_array( $parts ) && isset( $parts['host'] ) && preg_match( '/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i', $parts['host'] );
		if ( ! $valid || ! in_array( strtolower( $parts['scheme'] ?? '' ), array( 'http', 'https' ), true ) ) {
			return __( 'The instance URL must be an https URL, such as https://api.example.com.', 'sitebeam' );
		}
		if ( 'http' === strtolower( $parts['scheme'] ) && ! self::is_loopback_host( $parts['host'] ) ) {
			return __( 'The instance URL must start with https:// (http:// is allowed only for localhost and 127.0.0.1, because the token is sent to it).', 'sitebeam' );
		}
		if ( isset( $parts['user'] ) || isset( $parts['pass'] ) ) {
			return __( 'The instance URL must not contain a user name or password.', 'sitebeam' );
		}
		if ( isset( $parts['query'] ) || false !== strpos( $url, '?' ) ) {
			return __( 'The instance URL must not contain a query (?…).', 'sitebeam' );
		}
		if ( isset( $parts['fragment'] ) || false !== strpos( $url, '#' ) ) {
			return __( 'The instance URL must not contain a fragment (#…).', 'sitebeam' );
		}
		if ( '' !== ( $parts['path'] ?? '' ) && '/' !== $parts['path'] ) {
			return __( 'The instance URL must be the instance’s address without a path, such as https://api.example.com.', 'sitebeam' );
		}
		return null;
	}
}
