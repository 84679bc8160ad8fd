<?php
/**
 * One request over real HTTP to the served test site, as written: chunked bodies and raw header lines included,
 * which wp_remote_request cannot send.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

final class Raw_Http {

	/**
	 * The header lines of a conformance case's request: its headers, its Content-Type (none when null), and
	 * Transfer-Encoding when chunked.
	 *
	 * @param array<string, string> $headers      Header name => value, placeholders already replaced.
	 * @param string|null           $content_type The Content-Type, or null for none.
	 * @param bool                  $chunked      Whether the body is sent chunked.
	 * @return string[]
	 */
	public static function header_lines( array $headers, $content_type, $chunked ) {
		$lines = array();
		foreach ( $headers as $name => $value ) {
			$lines[] = $name . ': ' . $value;
		}
		$lines[] = null === $content_type ? 'Content-Type:' : 'Content-Type: ' . $content_type;
		if ( $chunked ) {
			$lines[] = 'Transfer-Encoding: chunked';
		}
		return $lines;
	}

	/**
	 * Sends one request and gives status, headers (lower-case names) and body.
	 *
	 * @param string      $url          The address.
	 * @param string      $method       The method.
	 * @param string[]    $header_lines Header lines, `Name: value` (`Name:` removes a header curl would add).
	 * @param string|null $body         The body, or null.
	 * @return array{status: int, headers: array<string, string>, body: string}
	 */
	public static function send( $url, $method, array $header_lines, $body ) {
		// phpcs:disable WordPress.WP.AlternativeFunctions, Generic.PHP.ForbiddenFunctions -- raw HTTP: chunked bodies, raw Host lines.
		$curl = curl_init( $url );
		curl_setopt_array(
			$curl,
			array(
				CURLOPT_CUSTOMREQUEST  => $method,
				CURLOPT_HTTPHEADER     => $header_lines,
				CURLOPT_RETURNTRANSFER => true,
				CURLOPT_HEADER         => true,
				CURLOPT_TIMEOUT        => 30,
			)
		);
		if ( null !== $body ) {
			curl_setopt( $curl, CURLOPT_POSTFIELDS, $body );
		}
		$raw    = (string) curl_exec( $curl );
		$status = (int) curl_getinfo( $curl, CURLINFO_RESPONSE_CODE );
		$split  = (int) curl_getinfo( $curl, CURLINFO_HEADER_SIZE );
		// phpcs:enable
		$parsed = array();
		foreach ( explode( "\r\n", substr( $raw, 0, $split ) ) as $line ) {
			if ( false !== strpos( $line, ':' ) ) {
				list( $name, $value )          = explode( ':', $line, 2 );
				$parsed[ strtolower( $name ) ] = trim( $value );
			}
		}
		return array(
			'status'  => $status,
			'headers' => $parsed,
			'body'    => substr( $raw, $split ),
		);
	}
}
