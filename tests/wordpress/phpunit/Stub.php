<?php
/**
 * The server stub's test surface (/__stub/*), over real HTTP.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

final class Stub {

	public static function url() {
		return (string) getenv( 'SITEBEAM_STUB_URL' );
	}

	/**
	 * @return array<int, array<string, mixed>> Each captured email's accepted message, oldest first.
	 */
	public static function messages() {
		$body = self::request( 'GET', '/__stub/emails' );
		return array_map(
			static function ( $email ) {
				return $email['message'];
			},
			$body['emails']
		);
	}

	public static function reset() {
		self::request( 'DELETE', '/__stub/emails' );
		self::request( 'DELETE', '/__stub/faults' );
	}

	/**
	 * Sets the stub's fault rules (replacing any): each rule answers the calls it matches with a status, a delay, or
	 * both, and must match only its own test's call (body_contains or headers), so no call of another test takes it.
	 *
	 * @param array<string, mixed> ...$rules Each: `body_contains` (text in the body, as JSON) or `headers` (name =>
	 *                                       value), then `status`, `delay_ms`, `times` (how many calls; default until
	 *                                       cleared), `retry_after`; `method` and `path_prefix` default to POST
	 *                                       /v1/email.
	 */
	public static function faults( array ...$rules ) {
		foreach ( $rules as $rule ) {
			if ( empty( $rule['body_contains'] ) && empty( $rule['headers'] ) ) {
				throw new \InvalidArgumentException( 'A fault must match only its own test\'s call: give body_contains or headers.' );
			}
		}
		$faults = array();
		foreach ( $rules as $rule ) {
			$faults[] = $rule + array(
				'method'      => 'POST',
				'path_prefix' => '/v1/email',
			);
		}
		self::request( 'PUT', '/__stub/faults', array( 'faults' => $faults ) );
	}

	/**
	 * Makes the stub answer the status to every mail whose body holds the marker: the test's own mail, no other's.
	 *
	 * @param string               $marker A text only this test's mail holds.
	 * @param int                  $status The status answered.
	 * @param array<string, mixed> $more   More of the rule (see faults()): `times`, `delay_ms`, `retry_after`.
	 */
	public static function fail_marked( $marker, $status, array $more = array() ) {
		self::faults(
			array(
				'status'        => $status,
				'body_contains' => $marker,
			) + $more
		);
	}

	public static function clear_faults() {
		self::request( 'DELETE', '/__stub/faults' );
	}

	/**
	 * @param string     $method HTTP method.
	 * @param string     $path   Path.
	 * @param array|null $body   JSON body.
	 * @return array<string, mixed>
	 */
	private static function request( $method, $path, $body = null ) {
		$args = array(
			'method'  => $method,
			'timeout' => 10,
		);
		if ( null !== $body ) {
			$args['headers'] = array( 'Content-Type' => 'application/json' );
			$args['body']    = wp_json_encode( $body );
		}
		$response = wp_remote_request( self::url() . $path, $args );
		if ( is_wp_error( $response ) ) {
			throw new \RuntimeException( 'stub: ' . $response->get_error_message() );
		}
		$code = wp_remote_retrieve_response_code( $response );
		if ( $code >= 300 ) {
			throw new \RuntimeException( "stub: $method $path answered $code: " . wp_remote_retrieve_body( $response ) );
		}
		$decoded = json_decode( wp_remote_retrieve_body( $response ), true );
		return is_array( $decoded ) ? $decoded : array();
	}
}
