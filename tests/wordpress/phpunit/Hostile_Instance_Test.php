<?php
/**
 * An instance answering what a broken, compromised or impersonated one could: the chat route gives the visitor the
 * contract's "try again" (never a TypeError or a 500), the owner's log names what was wrong on one line with its
 * control characters visible and without the token, and the client never reads more than the answer limit.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use Sitebeam\Api_Client;
use Sitebeam\Contract;
use WP_REST_Request;

final class Hostile_Instance_Test extends Plugin_Test_Case {

	/** @var array{status: int, body: string} */
	private $answer;

	/** @var array<int, array<string, mixed>> */
	private $request_args = array();

	/** @var string */
	private $log_file;

	/** @var string|false */
	private $saved_error_log;

	protected function setUp(): void {
		parent::setUp();
		$_SERVER['REMOTE_ADDR'] = '198.51.100.' . wp_rand( 1, 254 );
		$this->enable_chat( array( 'nltksentiment' ) );
		$this->log_file        = (string) tempnam( sys_get_temp_dir(), 'sitebeam-hostile-log' );
		$this->saved_error_log = ini_set( 'error_log', $this->log_file ); // phpcs:ignore WordPress.PHP.IniSet.Risky -- the test reads what the plugin logs.
		add_filter( 'pre_http_request', array( $this, 'hostile_api' ), 10, 3 );
	}

	protected function tearDown(): void {
		remove_filter( 'pre_http_request', array( $this, 'hostile_api' ) );
		ini_set( 'error_log', (string) $this->saved_error_log ); // phpcs:ignore WordPress.PHP.IniSet.Risky -- restored.
		wp_delete_file( $this->log_file );
		$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
		parent::tearDown();
	}

	/**
	 * Answers every API request with the test's answer.
	 *
	 * @param mixed  $preempt Null.
	 * @param array  $args    Request arguments.
	 * @param string $url     The address.
	 */
	public function hostile_api( $preempt, $args, $url ) {
		$this->request_args[] = $args;
		return array(
			'headers'  => array(),
			'body'     => $this->answer['body'],
			'response' => array(
				'code'    => $this->answer['status'],
				'message' => '',
			),
			'cookies'  => array(),
			'filename' => null,
		);
	}

	/** @return array<string, array{0: int, 1: string, 2: string}> */
	public static function hostile_answers() {
		return array(
			'a score that is HTML'              => array( 200, '{"status":"ok","response":["hi"],"score":"<img src=x onerror=alert(1)>"}', 'score is a string, not a number' ),
			'a response that is a string'       => array( 200, '{"status":"ok","response":"a string","score":1}', 'response is a string, not a list' ),
			'a response of an object and 7'     => array( 200, '{"status":"ok","response":[{"a":1},7],"score":1}', 'response[0] is an object, not a string' ),
			'a score that is true'              => array( 200, '{"status":"ok","response":["hi"],"score":true}', 'score is a boolean, not a number or null' ),
			'non-JSON with escape sequences'    => array( 200, "\e[2Jmaintenance", 'HTTP 200' ),
			'an HTML page with 200'             => array( 200, '<html><img src=x onerror=alert(1)></html>', 'HTTP 200' ),
			'an empty 200'                      => array( 200, '', 'HTTP 200' ),
			'a body over the answer size limit' => array( 200, '{"status":"ok","response":["' . str_repeat( 'a', Contract::LIMIT_ANSWER_BYTES ) . '"],"score":1}', 'larger than ' . Contract::LIMIT_ANSWER_BYTES . ' bytes' ),
		);
	}

	/**
	 * The visitor is told to try again; the log names what was wrong.
	 *
	 * @dataProvider hostile_answers
	 *
	 * @param int    $status The instance's status.
	 * @param string $body   The instance's body.
	 * @param string $named  What the log line must say.
	 */
	#[DataProvider( 'hostile_answers' )]
	public function test_a_broken_answer_is_try_again_for_the_visitor_and_named_in_the_log( $status, $body, $named ) {
		$this->answer = array(
			'status' => $status,
			'body'   => $body,
		);
		$response     = $this->post_chat();
		$this->assertSame( 502, $response->get_status() );
		$this->assertSame( Contract::CHAT_ERROR_UPSTREAM_FAILED, $response->get_data()['i18n_code'] );
		$this->assertStringNotContainsString( '<img', wp_json_encode( $response->get_data() ) );
		$log = $this->logged();
		$this->assertStringContainsString( $named, $log );
		$this->assertDoesNotMatchRegularExpression( '/[\x00-\x08\x0B-\x1F\x7F]/', $log );
		$this->assertSame( Contract::LIMIT_ANSWER_BYTES + 1, $this->request_args[0]['limit_response_size'] );
	}

	public function test_an_error_text_is_logged_on_one_line_with_controls_visible_and_no_token() {
		$token        = (string) get_option( \Sitebeam\Settings::TOKEN_OPTION );
		$this->answer = array(
			'status' => 400,
			'body'   => wp_json_encode(
				array(
					'status'    => 'ko',
					'error'     => "\e]0;owned\x07\e[2Jtoken $token refused\nsecond line",
					'i18n_code' => "invalid_payload\e[31m",
				)
			),
		);
		$response     = $this->post_chat();
		$this->assertSame( 502, $response->get_status() );
		$log = $this->logged();
		$this->assertNotSame( '', $token );
		$this->assertStringNotContainsString( $token, $log );
		$this->assertStringContainsString( '\e]0;owned\x07\e[2Jtoken [token] refused\nsecond line', $log );
		$this->assertStringContainsString( 'invalid_payload\e[31m', $log );
		$this->assertSame( 1, substr_count( trim( $log ), "\n" ) + 1, 'one line per event' );
	}

	public function test_an_auth_header_echoed_by_the_instance_is_logged_without_its_value() {
		$this->answer = array(
			'status' => 401,
			'body'   => wp_json_encode(
				array(
					'status'    => 'ko',
					'error'     => 'bad headers {"X-Auth-Token": "an-older-token"} and x-auth-token=another-one;',
					'i18n_code' => 'auth_failed',
				)
			),
		);
		$this->post_chat();
		$log = $this->logged();
		$this->assertStringNotContainsString( 'an-older-token', $log );
		$this->assertStringNotContainsString( 'another-one', $log );
		$this->assertStringContainsString( 'bad headers {"X-Auth-Token": "[token]"} and x-auth-token=[token];', $log );
	}

	public function test_the_model_list_of_a_broken_answer_is_an_error_naming_the_field() {
		$this->answer = array(
			'status' => 200,
			'body'   => '{"status":"ok","models":["mock",7]}',
		);
		$models       = Api_Client::from_settings()->list_models();
		$this->assertWPError( $models );
		$this->assertSame( Api_Client::ERROR_UNEXPECTED, $models->get_error_code() );
		$this->assertStringContainsString( 'models[1] is a number, not a string', $models->get_error_message() );
	}

	/**
	 * Asserts a WP_Error.
	 *
	 * @param mixed $value The value.
	 */
	private function assertWPError( $value ) {
		$this->assertInstanceOf( \WP_Error::class, $value );
	}

	/** What the plugin logged during the test. */
	private function logged() {
		return (string) file_get_contents( $this->log_file ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file.
	}

	/** Posts a visitor's JSON message to the chat route, in-process. */
	private function post_chat() {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/chat' );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body( wp_json_encode( array( 'message' => 'Hello' ) ) );
		return rest_get_server()->dispatch( $request );
	}
}
