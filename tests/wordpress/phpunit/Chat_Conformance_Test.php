<?php
/**
 * The shared chat cases (contract/conformance/chat.cases.json) against the chat route of the real, served
 * WordPress over real HTTP (a chunked body needs it), the API's answers mocked by the test site's
 * pre_http_request filter, which records every prompt the plugin sends. Prints
 * "chat conformance: N of M cases passed (wordpress)".
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Settings;

final class Chat_Conformance_Test extends Plugin_Test_Case {

	const OTHER_ORIGIN = 'https://elsewhere.example';
	const UPSTREAM     = 'sitebeam_test_upstream';
	const STATE        = 'sitebeam_test_state';

	public function test_every_shared_case_passes() {
		$file     = json_decode( (string) file_get_contents( dirname( __DIR__, 3 ) . '/contract/conformance/chat.cases.json' ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local test fixture.
		$failures = array();
		try {
			foreach ( $file['cases'] as $case ) {
				$problem = $this->run_case( $file['endpoint'], $case );
				if ( null !== $problem ) {
					$failures[] = $case['id'] . ': ' . $problem;
				}
			}
		} finally {
			delete_option( self::UPSTREAM );
			delete_option( self::STATE );
		}
		$passed = count( $file['cases'] ) - count( $failures );
		fwrite( STDERR, sprintf( "\nchat conformance: %d of %d cases passed (wordpress)\n", $passed, count( $file['cases'] ) ) );
		$this->assertSame( array(), $failures );
	}

	/**
	 * Runs one case with the owner's configuration of the file; null when it passed, else what differed.
	 *
	 * @param array<string, mixed> $endpoint The file's endpoint configuration.
	 * @param array<string, mixed> $case     A case.
	 */
	private function run_case( array $endpoint, array $case ) {
		global $wpdb;
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_rl\\_%'" ); // phpcs:ignore WordPress.DB -- every case starts from an empty rate-limit counter.
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB -- and a fresh daily count.
		$config = array_merge( $endpoint, $case['config'] ?? array() );
		$this->set_settings(
			array(
				'chat_enabled'     => true,
				'chat_models'      => $config['models'],
				'chat_settings'    => $config['settings'],
				'chat_rate_limit'  => $config['rateLimitCount'],
				'chat_daily_limit' => $config['dailyLimit'] ?? '',
				'chat_consent'     => $config['consent']['label'] ?? '',
				'chat_policy'      => $config['consent']['policyUrl'] ?? '',
			)
		);
		update_option( self::UPSTREAM, array( 'prompt' => $case['upstream'] ?? self::default_upstream() ), false );
		for ( $i = 0; $i < (int) ( $case['repeat'] ?? 0 ); $i++ ) {
			$this->send( $case['repeatRequest'] ?? $case['request'] );
		}
		delete_option( self::STATE );
		$response = $this->send( $case['request'] );
		wp_cache_flush();
		$prompts = (array) ( get_option( self::STATE, array() )['prompts'] ?? array() );
		return $this->compare( $case['request']['method'], $this->resolve( $case['expect'] ), $response, $prompts );
	}

	/**
	 * The API's answer when a case names none (the file's `upstream` note).
	 */
	private static function default_upstream() {
		return array(
			'status'  => 200,
			'headers' => array(),
			'body'    => array(
				'response' => array( 'an answer' ),
				'score'    => 0.5,
				'status'   => 'ok',
			),
		);
	}

	/**
	 * Sends one request over HTTP.
	 *
	 * @param array<string, mixed> $request The case's request.
	 * @return array{status: int, headers: array<string, string>, body: string}
	 */
	private function send( array $request ) {
		$headers = array_map( array( $this, 'resolve' ), (array) ( $request['headers'] ?? array() ) );
		$lines   = Raw_Http::header_lines( $headers, $request['contentType'] ?? null, ! empty( $request['chunked'] ) );
		return Raw_Http::send( getenv( 'SITEBEAM_WP_URL' ) . '/wp-json/sitebeam/v1/chat', $request['method'], $lines, $this->body( $request ) );
	}

	/**
	 * The body: a JSON message of N bytes, a raw string, or an object encoded per content type.
	 *
	 * @param array<string, mixed> $request The case's request.
	 */
	private function body( array $request ) {
		if ( isset( $request['bodyBytes'] ) ) {
			return '{"message":"' . str_repeat( 'x', (int) $request['bodyBytes'] - 14 ) . '"}';
		}
		if ( ! array_key_exists( 'body', $request ) || is_string( $request['body'] ) ) {
			return $request['body'] ?? null;
		}
		$fields = $this->resolve( $request['body'] );
		if ( 0 === strpos( (string) $request['contentType'], 'application/x-www-form-urlencoded' ) ) {
			$pairs = array();
			foreach ( $fields as $name => $value ) {
				$pairs[] = rawurlencode( $name ) . '=' . rawurlencode( (string) $value );
			}
			return implode( '&', $pairs );
		}
		return (string) wp_json_encode( $fields, JSON_UNESCAPED_UNICODE );
	}

	/**
	 * Replaces the placeholders: origins at the start of a text, {"$repeat": [text, n]} anywhere.
	 *
	 * @param mixed $value A case's value.
	 * @return mixed
	 */
	private function resolve( $value ) {
		if ( is_string( $value ) ) {
			$self = untrailingslashit( (string) getenv( 'SITEBEAM_WP_URL' ) );
			return preg_replace( array( '/^\$ALLOWED_ORIGIN/', '/^\$SELF_ORIGIN/', '/^\$OTHER_ORIGIN/' ), array( $self, $self, self::OTHER_ORIGIN ), $value );
		}
		if ( is_array( $value ) && isset( $value['$repeat'] ) ) {
			return str_repeat( $value['$repeat'][0], $value['$repeat'][1] );
		}
		return is_array( $value ) ? array_map( array( $this, 'resolve' ), $value ) : $value;
	}

	/**
	 * What differs between the expectation and the answer, or null.
	 *
	 * @param string                                                        $method   The request's method.
	 * @param array<string, mixed>                                          $expect   The case's expectation, resolved.
	 * @param array{status: int, headers: array<string, string>, body: string} $response The answer.
	 * @param array<int, mixed>                                             $prompts  The prompts the API received.
	 */
	private function compare( $method, array $expect, array $response, array $prompts ) {
		$seen    = sprintf( 'got %d %s', $response['status'], substr( $response['body'], 0, 160 ) );
		$headers = $response['headers'];
		$is_json = 0 === strpos( $headers['content-type'] ?? '', 'application/json' );
		$data    = $is_json ? json_decode( $response['body'], true ) : null;
		$checks  = array(
			'status'                  => $expect['status'] === $response['status'],
			'no token'                => false === strpos( wp_json_encode( $headers ) . $response['body'], (string) getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ) ),
			'Cache-Control: no-store' => 'OPTIONS' === $method || 'no-store' === ( $headers['cache-control'] ?? '' ),
		);
		if ( isset( $expect['i18n_code'] ) && $is_json ) {
			$checks['refusal shape'] = 'ko' === ( $data['status'] ?? '' ) && is_string( $data['error'] ?? null ) && $expect['i18n_code'] === ( $data['i18n_code'] ?? null );
			$checks['field']         = ( $expect['field'] ?? null ) === ( $data['field'] ?? null );
		}
		foreach ( (array) ( $expect['headers'] ?? array() ) as $name => $rule ) {
			$actual = $headers[ strtolower( $name ) ] ?? '';
			if ( '$SECONDS' === $rule ) {
				$checks[ "header $name" ] = 1 === preg_match( '/^[1-9]\d*$/', $actual );
			} elseif ( 0 === strpos( $rule, '$CONTAINS:' ) ) {
				$checks[ "header $name" ] = false !== strpos( $actual, substr( $rule, 10 ) );
			} else {
				$checks[ "header $name" ] = $rule === $actual;
			}
		}
		if ( isset( $expect['contentType'] ) ) {
			$checks['content type'] = false !== strpos( $headers['content-type'] ?? '', $expect['contentType'] );
		}
		foreach ( (array) ( $expect['body'] ?? array() ) as $key => $value ) {
			$checks[ "body $key" ] = is_array( $data ) && array_key_exists( $key, $data ) && $value === $data[ $key ];
		}
		foreach ( (array) ( $expect['bodyAbsent'] ?? array() ) as $key ) {
			$checks[ "no body $key" ] = is_array( $data ) && ! array_key_exists( $key, $data );
		}
		foreach ( array_merge( (array) ( $expect['bodyLacks'] ?? array() ), (array) ( $expect['htmlLacks'] ?? array() ) ) as $piece ) {
			$checks[ "lacks $piece" ] = false === strpos( $response['body'], $piece );
		}
		foreach ( (array) ( $expect['htmlContains'] ?? array() ) as $piece ) {
			$checks[ "contains $piece" ] = false !== strpos( $response['body'], $piece );
		}
		if ( array_key_exists( 'prompt', $expect ) ) {
			$checks['prompt'] = null === $expect['prompt'] ? array() === $prompts : array( $expect['prompt'] ) == $prompts; // phpcs:ignore Universal.Operators.StrictComparisons -- members in any order, as JSON objects compare.
		}
		$failed = array_keys( array_filter( $checks, static fn( $ok ) => ! $ok ) );
		return array() === $failed ? null : 'expected ' . implode( ', ', $failed ) . "; $seen; prompts " . substr( (string) wp_json_encode( $prompts ), 0, 200 );
	}
}
