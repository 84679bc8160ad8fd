<?php
/**
 * The contact and chat rate limits count an IPv6 visitor by its /64, and hold under a burst of parallel posts to the
 * served site (PHP_CLI_SERVER_WORKERS=4 in env.sh: four requests at once), issue #30, item 2.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Visitor;
use WP_REST_Request;

final class Rate_Limit_Test extends Plugin_Test_Case {

	protected function setUp(): void {
		parent::setUp();
		self::forget_rate_limits();
	}

	protected function tearDown(): void {
		self::forget_rate_limits();
		$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
		parent::tearDown();
	}

	public function test_an_ipv6_visitor_is_counted_by_its_64() {
		$this->assertSame( '2001:db8:1:2::/64', Visitor::counted_as( '2001:db8:1:2:aaaa:bbbb:cccc:dddd' ) );
		$this->assertSame( '2001:db8:1:2::/64', Visitor::counted_as( '2001:0DB8:0001:0002::1' ) );
		$this->assertSame( '2001:db8:1:3::/64', Visitor::counted_as( '[2001:db8:1:3::1]' ) );
		$this->assertSame( '203.0.113.9', Visitor::counted_as( '::ffff:203.0.113.9' ), 'an IPv4 address mapped into IPv6' );
		$this->assertSame( '203.0.113.9', Visitor::counted_as( '203.0.113.9' ) );
		$this->assertSame( 'unknown', Visitor::counted_as( 'unknown' ) );
	}

	public function test_twelve_addresses_of_one_64_share_the_contact_allowance() {
		$network = self::random_64();
		$answers = array();
		for ( $i = 1; $i <= 12; $i++ ) {
			$_SERVER['REMOTE_ADDR'] = sprintf( '%s:%x:%x:%x:%x', $network, wp_rand( 0, 0xffff ), wp_rand( 0, 0xffff ), wp_rand( 0, 0xffff ), $i );
			$answers[]              = $this->post_contact()->get_status();
		}
		$this->assertSame( array_merge( array_fill( 0, 5, 200 ), array_fill( 0, 7, 429 ) ), $answers );
		$this->assertCount( 5, Stub::messages() );
		$_SERVER['REMOTE_ADDR'] = self::random_64() . '::1';
		$this->assertSame( 200, $this->post_contact()->get_status(), 'another /64 has its own allowance' );
	}

	public function test_twelve_addresses_of_one_64_share_the_chat_allowance() {
		$this->enable_chat( array( 'mock' ), array( 'chat_rate_limit' => 10 ) );
		$network = self::random_64();
		$answers = array();
		for ( $i = 1; $i <= 12; $i++ ) {
			$_SERVER['REMOTE_ADDR'] = sprintf( '%s::%x', $network, $i );
			// An empty message is refused, and counted: no model is prompted.
			$answers[] = $this->post_chat( array( 'message' => '' ) )->get_data()['i18n_code'];
		}
		$this->assertSame( array_merge( array_fill( 0, 10, 'invalid_field' ), array_fill( 0, 2, 'rate_limited' ) ), $answers );
	}

	/**
	 * Twenty valid posts at once from one visitor over HTTP: exactly the allowance is sent.
	 */
	public function test_parallel_contact_posts_let_exactly_the_allowance_through() {
		$self   = untrailingslashit( (string) getenv( 'SITEBEAM_WP_URL' ) );
		$body   = (string) wp_json_encode( self::contact_post() );
		$counts = array_count_values(
			self::parallel(
				20,
				$self . '/wp-json/sitebeam/v1/contact',
				array( 'Content-Type: application/json', 'Origin: ' . $self ),
				$body
			)
		);
		ksort( $counts );
		$this->assertSame(
			array(
				200 => Contract::CONTACT_RATE_LIMIT_COUNT,
				429 => 20 - Contract::CONTACT_RATE_LIMIT_COUNT,
			),
			$counts
		);
		$this->assertCount( Contract::CONTACT_RATE_LIMIT_COUNT, Stub::messages() );
	}

	public function test_parallel_chat_posts_let_exactly_the_allowance_through() {
		$this->enable_chat( array( 'mock' ), array( 'chat_rate_limit' => 3 ) );
		$self   = untrailingslashit( (string) getenv( 'SITEBEAM_WP_URL' ) );
		$counts = array_count_values(
			self::parallel(
				20,
				$self . '/wp-json/sitebeam/v1/chat',
				array( 'Content-Type: application/json', 'Origin: ' . $self ),
				'{"message":""}'
			)
		);
		ksort( $counts );
		$this->assertSame(
			array(
				400 => 3,
				429 => 17,
			),
			$counts
		);
	}

	/**
	 * Sends the same post several times at once; their statuses.
	 *
	 * @param int      $times        How many.
	 * @param string   $url          The address.
	 * @param string[] $header_lines Header lines.
	 * @param string   $body         The body.
	 * @return int[]
	 */
	private static function parallel( $times, $url, array $header_lines, $body ) {
		// phpcs:disable WordPress.WP.AlternativeFunctions -- concurrent requests: wp_remote_* sends one at a time.
		$multi   = curl_multi_init();
		$handles = array();
		for ( $i = 0; $i < $times; $i++ ) {
			$curl = curl_init( $url );
			curl_setopt_array(
				$curl,
				array(
					CURLOPT_POST           => true,
					CURLOPT_HTTPHEADER     => $header_lines,
					CURLOPT_POSTFIELDS     => $body,
					CURLOPT_RETURNTRANSFER => true,
					CURLOPT_TIMEOUT        => 120,
				)
			);
			curl_multi_add_handle( $multi, $curl );
			$handles[] = $curl;
		}
		do {
			$status = curl_multi_exec( $multi, $running );
			if ( $running ) {
				curl_multi_select( $multi, 1.0 );
			}
		} while ( $running && CURLM_OK === $status );
		$statuses = array();
		foreach ( $handles as $curl ) {
			$statuses[] = (int) curl_getinfo( $curl, CURLINFO_RESPONSE_CODE );
			curl_multi_remove_handle( $multi, $curl );
		}
		curl_multi_close( $multi );
		// phpcs:enable
		return $statuses;
	}

	/** A random /64 of the documentation prefix, without its "::". */
	private static function random_64() {
		return sprintf( '2001:db8:%x:%x', wp_rand( 0, 0xffff ), wp_rand( 0, 0xffff ) );
	}

	private function post_contact() {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/contact' );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body( (string) wp_json_encode( self::contact_post() ) );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * @param array<string, string> $fields The body.
	 */
	private function post_chat( array $fields ) {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/chat' );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body( (string) wp_json_encode( $fields ) );
		return rest_get_server()->dispatch( $request );
	}

	/** Every visitor's rate-limit counters, on the served site too (its database is this one). */
	private static function forget_rate_limits() {
		global $wpdb;
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_%sitebeam\\_rl\\_%' OR option_name LIKE 'sitebeam\\_rl\\_%'" ); // phpcs:ignore WordPress.DB -- test fixture.
	}
}
