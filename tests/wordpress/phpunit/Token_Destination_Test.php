<?php
/**
 * Where the API token may go: only to a bare https origin (http on loopback), never through a redirect, never to
 * a private address unless SITEBEAM_ALLOW_PRIVATE_HOSTS says so, never to a URL saved on the settings page when
 * the token itself is fixed in wp-config.php; and no error text tells open ports from closed ones.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Contract;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\PreserveGlobalState;
use PHPUnit\Framework\Attributes\RunInSeparateProcess;
use Sitebeam\Admin\Settings_Sanitizer;
use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Settings;

final class Token_Destination_Test extends Plugin_Test_Case {

	protected function tearDown(): void {
		remove_all_filters( 'pre_http_request' );
		parent::tearDown();
	}

	/**
	 * @return array<string, array{string}>
	 */
	public static function urls_that_could_misroute_the_token() {
		return array(
			'query turning /v1/email into a query string' => array( 'https://api.example.test/x?' ),
			'path'                                        => array( 'https://api.example.test/collect' ),
			'fragment'                                    => array( 'https://api.example.test#x' ),
			'user info'                                   => array( 'https://user:pass@api.example.test' ),
			'not http'                                    => array( 'ftp://api.example.test' ),
			'plain http elsewhere'                        => array( 'http://api.example.test' ),
			'spaces in the host'                          => array( 'https://api example.test' ),
		);
	}

	/**
	 * @dataProvider urls_that_could_misroute_the_token
	 *
	 * @param string $url A URL the settings page must refuse.
	 */
	#[DataProvider( 'urls_that_could_misroute_the_token' )]
	public function test_the_settings_page_refuses_a_url_that_could_misroute_the_token( $url ) {
		$stored = get_option( Settings::OPTION )['api_url'];
		$clean  = Settings_Sanitizer::sanitize( array( 'api_url' => $url ) );
		$this->assertSame( $stored, $clean['api_url'] );
		$this->assertSame( array( 'sitebeam_api_url' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
		$this->assertFalse( Settings::is_allowed_api_url( $url ), 'nor is such a URL used when stored by an older version' );
	}

	public function test_a_bare_origin_is_accepted() {
		foreach ( array( 'https://api.example.test/', 'https://api.example.test:8443', 'http://localhost:3000', 'http://[::1]:3000' ) as $url ) {
			$this->assertTrue( Settings::is_allowed_api_url( $url ), $url );
		}
	}

	public function test_private_addresses_are_refused_unless_allowed() {
		$refused = ( new Api_Client( Stub::url(), getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ) ) )->send_email( $this->message() );
		// Refused for good, naming the fix: no retry can cure it, so a mail fails at once and is never kept.
		$this->assertWPError( $refused, Api_Client::ERROR_URL_REFUSED );
		$this->assertStringContainsString( 'WordPress refuses to send to the instance URL ' . Stub::url(), $refused->get_error_message() );
		$this->assertStringContainsString( "define( 'SITEBEAM_ALLOW_PRIVATE_HOSTS', true );", $refused->get_error_message() );
		$this->assertFalse( \Sitebeam\Mail\Outbox::is_passing( $refused ) );
		$this->assertSame( array(), Stub::messages() );

		$sent = ( new Api_Client( Stub::url(), getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), true ) )->send_email( $this->message() );
		$this->assertIsArray( $sent );
		$this->assertCount( 1, Stub::messages() );
	}

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_a_localhost_name_is_this_machine_reached_without_asking_dns() {
		// The test site blocks external hosts (WP_HTTP_BLOCK_EXTERNAL); a site with a *.localhost instance lets it in.
		define( 'WP_ACCESSIBLE_HOSTS', '*.localhost' );
		$named = (string) preg_replace( '#^http://[^:/]+#', 'http://sitebeam-stub.localhost', Stub::url() );
		$this->assertTrue( Settings::is_allowed_api_url( $named ) );
		$asked = array();
		add_filter(
			'pre_http_request',
			static function ( $response, $args, $url ) use ( &$asked ) {
				$asked[] = $url;
				return $response;
			},
			10,
			3
		);
		$refused = ( new Api_Client( $named, getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ) ) )->send_email( $this->message() );
		$this->assertWPError( $refused, Api_Client::ERROR_URL_REFUSED );
		$this->assertStringContainsString( Settings::ALLOW_PRIVATE_HOSTS_CONSTANT, $refused->get_error_message() );
		$this->assertSame( array(), $asked, 'refused before any request, so before any DNS lookup of the name' );

		// cURL's own account of how it found the address (libcurl 7.85 and later also know *.localhost by themselves).
		$trace = fopen( 'php://temp', 'w+' ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- cURL writes its trace to a stream.
		$watch = static function ( $handle ) use ( $trace ) {
			curl_setopt( $handle, CURLOPT_VERBOSE, true ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- the test reads cURL's trace.
			curl_setopt( $handle, CURLOPT_STDERR, $trace ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- the test reads cURL's trace.
		};
		add_action( 'http_api_curl', $watch, 20 );
		$sent = ( new Api_Client( $named, getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), true ) )->send_email( $this->message() );
		remove_action( 'http_api_curl', $watch, 20 );
		$this->assertSame( array( $named . '/v1/email' ), $asked, 'the URL, and so the Host header, keep the name' );
		rewind( $trace );
		// libcurl 7.x and 8.14 say "Added NAME:PORT:ADDRESS to DNS cache", 8.23 (PHP 8.5's, Debian sid) "[DNS] added … to cache".
		$this->assertMatchesRegularExpression( '/(?:Added|\[DNS\] added) sitebeam-stub\.localhost:\d+:127\.0\.0\.1 to (?:DNS )?cache.*Hostname sitebeam-stub\.localhost was found in DNS cache/s', (string) stream_get_contents( $trace ) );
		$this->assertIsArray( $sent );
		$this->assertCount( 1, Stub::messages() );
	}

	public function test_no_call_carrying_the_token_follows_a_redirect() {
		$seen = array();
		add_filter(
			'pre_http_request',
			static function ( $response, $args, $url ) use ( &$seen ) {
				$seen[] = array( $url, $args['redirection'], $args['headers']['X-Auth-Token'] ?? null );
				return array(
					'headers'  => array( 'location' => 'https://elsewhere.example/v1/email' ),
					'body'     => '',
					'response' => array(
						'code'    => 302,
						'message' => 'Found',
					),
					'cookies'  => array(),
				);
			},
			10,
			3
		);
		$client = new Api_Client( 'https://api.example.test', 'secret-token' );
		$this->assertWPError( $client->send_email( $this->message() ), Api_Client::ERROR_UNEXPECTED );
		$this->assertWPError( $client->check_connection()['email'], Api_Client::ERROR_UNEXPECTED );
		$this->assertSame(
			array(
				array( 'https://api.example.test/v1/email', 0, 'secret-token' ),
				array( 'https://api.example.test/v1/email', 0, 'secret-token' ),
			),
			$seen
		);
	}

	public function test_errors_below_the_api_read_the_same_for_open_and_closed_ports() {
		$closed = ( new Api_Client( 'http://127.0.0.1:9', 'x', true ) )->check_connection()['email'];
		$open   = ( new Api_Client( getenv( 'SITEBEAM_WP_URL' ), 'x', true ) )->check_connection()['email'];
		$this->assertWPError( $closed, Api_Client::ERROR_NETWORK );
		$this->assertWPError( $open, Api_Client::ERROR_UNEXPECTED );
		$this->assertSame( Api_Messages::describe( $closed ), Api_Messages::describe( $open ) );
	}

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_a_token_fixed_in_wp_config_is_never_sent_to_a_url_from_the_settings_page() {
		define( 'SITEBEAM_API_TOKEN', getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ) );
		$result = Api_Client::from_settings()->check_connection()['email'];
		$this->assertWPError( $result, Api_Client::ERROR_NOT_CONFIGURED );
		$this->assertStringContainsString( 'SITEBEAM_API_URL', Api_Messages::describe( $result ) );
	}

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_a_token_and_url_both_fixed_in_wp_config_work() {
		define( 'SITEBEAM_API_TOKEN', getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ) );
		define( 'SITEBEAM_API_URL', Stub::url() );
		$this->assertSame(
			array(
				'email' => true,
				'ai'    => true,
			),
			Api_Client::from_settings()->check_connection()
		);
	}

	/**
	 * @param mixed  $actual Value.
	 * @param string $code   Expected error code.
	 */
	private function assertWPError( $actual, $code ) {
		$this->assertInstanceOf( \WP_Error::class, $actual );
		$this->assertSame( $code, $actual->get_error_code() );
	}

	private function message() {
		return array(
			Contract::EMAIL_FIELD_TO      => 'someone@example.com',
			Contract::EMAIL_FIELD_SUBJECT => 'Hello',
			Contract::EMAIL_FIELD_CONTENT => '<p>Hello</p>',
		);
	}
}
