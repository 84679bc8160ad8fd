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
	 * Fails the sends of the mail holding $marker, and no other mail.
	 *
	 * @param string   $marker Text only the test's own mail holds (in its subject or body).
	 * @param int      $status Status /v1/email answers.
	 * @param int|null $times  How many calls fail; null: until reset.
	 */
	public static function fail_email( $marker, $status, $times = null ) {
		self::fail( 'POST', '/v1/email', $status, $times, array( 'body_contains' => $marker ) );
	}

	/**
	 * Fails the calls that carry $match, so that no call of another test can take the fault.
	 *
	 * @param string               $method      HTTP method of the calls that fail.
	 * @param string               $path_prefix Their path, or its start.
	 * @param int                  $status      Status they are answered.
	 * @param int|null             $times       How many calls fail; null: until reset.
	 * @param array<string, mixed> $match       What only the test's own call carries: array( 'body_contains' => text )
	 *                                          or array( 'headers' => array( name => value ) ).
	 */
	public static function fail( $method, $path_prefix, $status, $times, array $match ) {
		if ( empty( $match['body_contains'] ) && empty( $match['headers'] ) ) {
			throw new \InvalidArgumentException( 'a fault matches the test\'s own call: give body_contains or headers' );
		}
		$fault = array(
			'method'      => $method,
			'path_prefix' => $path_prefix,
			'status'      => $status,
		) + $match;
		if ( null !== $times ) {
			$fault['times'] = $times;
		}
		self::request( 'PUT', '/__stub/faults', array( 'faults' => array( $fault ) ) );
	}

	/**
	 * Sets fault rules on /v1/email; each must name its own test's request (body_contains or headers).
	 *
	 * @param array<int, array<string, mixed>> $rules Rules, without method and path_prefix.
	 */
	public static function email_faults( array $rules ) {
		foreach ( $rules as $rule ) {
			if ( ! isset( $rule['body_contains'] ) && ! isset( $rule['headers'] ) ) {
				throw new \LogicException( 'A fault must match only its own test\'s request (body_contains or headers).' );
			}
		}
		self::request(
			'PUT',
			'/__stub/faults',
			array(
				'faults' => array_map(
					static function ( $rule ) {
						return $rule + array(
							'method'      => 'POST',
							'path_prefix' => '/v1/email',
						);
					},
					$rules
				),
			)
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
