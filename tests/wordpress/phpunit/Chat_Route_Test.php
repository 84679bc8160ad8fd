<?php
/**
 * What the chat route does beyond the shared cases: it asks the API to load a model that is loading, reads the
 * allowed models and settings from the plugin's settings, and counts visitors apart from the contact form.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Chat\Daily_Budget;
use Sitebeam\Endpoint\Rate_Limiter;
use WP_REST_Request;

final class Chat_Route_Test extends Plugin_Test_Case {

	/** @var array<int, array{method: string, url: string, body: mixed}> */
	private $api_requests = array();

	/** @var array{status: int, headers: array<string, string>, body: array<string, mixed>} */
	private $prompt_answer;

	protected function setUp(): void {
		parent::setUp();
		// A fresh visitor per test, from 2^32 networks (an IPv6 visitor is counted by its /64): 254 let two tests
		// within a minute share a rate-limit counter.
		$_SERVER['REMOTE_ADDR'] = sprintf( '2001:db8:%x:%x::%x', wp_rand( 0, 0xffff ), wp_rand( 0, 0xffff ), wp_rand( 1, 0xffff ) );
		$this->enable_chat( array( 'nltksentiment', 'mock' ), array( 'chat_settings' => array( 'max_length' => 20 ) ) );
		$this->prompt_answer = array(
			'status'  => 200,
			'headers' => array(),
			'body'    => array(
				'response' => array( 'fine' ),
				'score'    => 0.25,
				'status'   => 'ok',
			),
		);
		add_filter( 'pre_http_request', array( $this, 'fake_api' ), 10, 3 );
	}

	protected function tearDown(): void {
		self::forget_daily_counts();
		remove_filter( 'pre_http_request', array( $this, 'fake_api' ) );
		$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
		parent::tearDown();
	}

	/**
	 * Records the plugin's API requests and answers them.
	 *
	 * @param mixed  $preempt Null.
	 * @param array  $args    Request arguments.
	 * @param string $url     The address.
	 */
	public function fake_api( $preempt, $args, $url ) {
		$this->api_requests[] = array(
			'method' => $args['method'],
			'url'    => $url,
			'body'   => isset( $args['body'] ) ? json_decode( $args['body'], true ) : null,
			'token'  => $args['headers']['X-Auth-Token'] ?? null,
		);
		$answer = false !== strpos( $url, '/v1/ai/model/' )
			? array(
				'status'  => 202,
				'headers' => array(),
				'body'    => array(
					'status' => 'ok',
					'state'  => 'loading',
				),
			)
			: $this->prompt_answer;
		return array(
			'headers'  => $answer['headers'],
			'body'     => wp_json_encode( $answer['body'] ),
			'response' => array(
				'code'    => $answer['status'],
				'message' => '',
			),
			'cookies'  => array(),
			'filename' => null,
		);
	}

	public function test_the_default_model_gets_the_owner_settings_and_the_token_stays_server_side() {
		$response = $this->post( array( 'message' => 'Hello' ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame(
			array(
				'status'   => 'ok',
				'model'    => 'nltksentiment',
				'response' => array( 'fine' ),
				'score'    => 0.25,
			),
			$response->get_data()
		);
		$this->assertCount( 1, $this->api_requests );
		$this->assertSame( getenv( 'SITEBEAM_STUB_URL' ) . '/v1/ai/prompt', $this->api_requests[0]['url'] );
		$this->assertSame( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), $this->api_requests[0]['token'] );
		$this->assertSame( array( 'max_length' => 20 ), $this->api_requests[0]['body']['settings'] );
		$this->assertStringNotContainsString( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), wp_json_encode( array( $response->get_data(), $response->get_headers() ) ) );
	}

	public function test_without_prompt_settings_an_empty_object_is_sent() {
		$this->set_settings( array( 'chat_settings' => array() ) );
		$this->post( array( 'message' => 'Hello' ) );
		$this->assertSame( '{}', wp_json_encode( (object) $this->api_requests[0]['body']['settings'] ) );
		$this->assertSame( array(), $this->api_requests[0]['body']['settings'] );
	}

	public function test_a_loading_model_is_passed_on_with_retry_after_and_the_api_is_asked_to_load_it() {
		$this->prompt_answer = array(
			'status'  => 503,
			'headers' => array( 'retry-after' => '4' ),
			'body'    => array(
				'status'    => 'ko',
				'error'     => 'loading',
				'i18n_code' => 'model_loading',
			),
		);
		$response            = $this->post(
			array(
				'message' => 'Hello',
				'model'   => 'mock',
			)
		);
		$this->assertSame( 503, $response->get_status() );
		$this->assertSame( 'model_loading', $response->get_data()['i18n_code'] );
		$this->assertSame( '4', $response->get_headers()['Retry-After'] );
		$this->assertSame( array( 'POST', 'GET' ), array_column( $this->api_requests, 'method' ) );
		$this->assertSame( getenv( 'SITEBEAM_STUB_URL' ) . '/v1/ai/model/mock', $this->api_requests[1]['url'] );
	}

	public function test_without_a_token_the_chat_is_not_configured_and_the_api_is_not_called() {
		update_option( 'sitebeam_api_token', '', false );
		$response = $this->post( array( 'message' => 'Hello' ) );
		$this->assertSame( 503, $response->get_status() );
		$this->assertSame( 'not_configured', $response->get_data()['i18n_code'] );
		$this->assertSame( array(), $this->api_requests );
	}

	public function test_the_chat_is_off_until_enabled_even_with_models() {
		$this->set_settings( array( 'chat_enabled' => false ) );
		$request = new WP_REST_Request( 'GET', '/sitebeam/v1/chat' );
		$this->assertSame( 503, rest_get_server()->dispatch( $request )->get_status() );
	}

	public function test_the_chat_allowance_is_its_own() {
		$visitor = '203.0.113.77';
		for ( $i = 0; $i < 10; $i++ ) {
			$this->assertSame( 0, Rate_Limiter::hit( 'chat', 10, 60, $visitor ) );
		}
		$this->assertGreaterThan( 0, Rate_Limiter::hit( 'chat', 10, 60, $visitor ) );
		$this->assertSame( 0, Rate_Limiter::hit( 'contact', 5, 60, $visitor ), 'the contact form still has its allowance' );
	}

	public function test_the_owner_sets_the_chat_rate() {
		$this->set_settings( array( 'chat_rate_limit' => 2 ) );
		$this->post( array( 'message' => 'one' ) );
		$this->post( array( 'message' => 'two' ) );
		$response = $this->post( array( 'message' => 'three' ) );
		$this->assertSame( 429, $response->get_status() );
		$this->assertCount( 2, $this->api_requests );
	}

	public function test_over_the_daily_limit_the_chat_is_closed_until_the_next_utc_day() {
		self::forget_daily_counts();
		$this->set_settings( array( 'chat_daily_limit' => 2 ) );
		$this->assertSame( 200, $this->post( array( 'message' => 'one' ) )->get_status() );
		$refused = $this->post(
			array(
				'message' => 'not sent',
				'model'   => 'gpt2',
			)
		);
		$this->assertSame( 'invalid_field', $refused->get_data()['i18n_code'], 'a refused message spends nothing' );
		$_SERVER['REMOTE_ADDR'] = '203.0.113.9';
		$this->assertSame( 200, $this->post( array( 'message' => 'two, from another visitor' ) )->get_status() );
		$closed = $this->post( array( 'message' => 'three' ) );
		$this->assertSame( 429, $closed->get_status() );
		$this->assertSame( 'daily_limit_reached', $closed->get_data()['i18n_code'] );
		$this->assertSame( 'The chat is closed for today. Please come back tomorrow.', $closed->get_data()['error'] );
		$this->assertEqualsWithDelta( Daily_Budget::seconds_to_next_day( time() ), (int) $closed->get_headers()['Retry-After'], 2 );
		$this->assertCount( 2, $this->api_requests );

		$this->set_settings( array( 'chat_daily_limit' => 0 ) );
		$this->assertSame( 200, $this->post( array( 'message' => 'no limit' ) )->get_status() );
	}

	public function test_an_owner_who_never_chose_a_daily_limit_gets_500_messages_a_day() {
		global $wpdb;
		self::forget_daily_counts();
		$this->set_settings( array( 'chat_daily_limit' => '' ) );
		$today = Daily_Budget::OPTION_PREFIX . gmdate( 'Ymd' );
		$wpdb->query( $wpdb->prepare( "INSERT INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, '499', 'no')", $today ) ); // phpcs:ignore WordPress.DB -- 499 messages sent today.
		$this->assertSame( 200, $this->post( array( 'message' => 'the 500th' ) )->get_status() );
		$closed = $this->post( array( 'message' => 'the 501st' ) );
		$this->assertSame( 429, $closed->get_status() );
		$this->assertSame( 'daily_limit_reached', $closed->get_data()['i18n_code'] );
		$this->set_settings( array( 'chat_daily_limit' => 0 ) );
		$this->assertSame( 200, $this->post( array( 'message' => 'no limit, set on purpose' ) )->get_status() );
		$this->assertCount( 2, $this->api_requests );
	}

	public function test_the_daily_count_starts_afresh_each_utc_day_and_forgets_the_days_before() {
		global $wpdb;
		$late = gmmktime( 23, 59, 30, 2, 3, 2001 );
		$this->assertSame( 0, Daily_Budget::take( 1, $late ) );
		$this->assertSame( 30, Daily_Budget::take( 1, $late ), 'closed for the 30 s left of that day' );
		$this->assertSame( 0, Daily_Budget::take( 1, $late + 60 ) );
		$days = $wpdb->get_col( "SELECT option_name FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB -- what the counter stored.
		$this->assertSame( array( 'sitebeam_chat_day_20010204' ), $days );
	}

	public function test_over_http_only_this_site_is_named_in_cors_headers() {
		$url   = getenv( 'SITEBEAM_WP_URL' ) . '/wp-json/sitebeam/v1/chat';
		$self  = untrailingslashit( (string) getenv( 'SITEBEAM_WP_URL' ) );
		$other = Raw_Http::send( $url, 'GET', array( 'Origin: https://elsewhere.example' ), null );
		$this->assertSame( 403, $other['status'] );
		$this->assertArrayNotHasKey( 'access-control-allow-origin', $other['headers'] );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $other['headers'] );
		$own = Raw_Http::send( $url, 'GET', array( 'Origin: ' . $self ), null );
		$this->assertSame( 200, $own['status'] );
		$this->assertSame( $self, $own['headers']['access-control-allow-origin'] );
		$this->assertSame( 'retry-after', $own['headers']['access-control-expose-headers'] );
		$this->assertSame( 'no-store', $own['headers']['cache-control'] );
	}

	private static function forget_daily_counts() {
		global $wpdb;
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB -- the daily counter has no API to reset it.
	}

	/**
	 * Posts JSON to the chat route, in-process.
	 *
	 * @param array<string, string> $fields The body.
	 */
	private function post( array $fields ) {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/chat' );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body( wp_json_encode( $fields ) );
		return rest_get_server()->dispatch( $request );
	}
}
