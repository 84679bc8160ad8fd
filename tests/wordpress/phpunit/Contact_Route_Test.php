<?php
/**
 * The contact protocol (snippet/src/form/PROTOCOL.md) on the REST route, sending to the real stub (and to the real
 * service's answers, faked, where they differ).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use Sitebeam\Contact\Form_Nonce;
use Sitebeam\Contact\Ticket;
use Sitebeam\Contract;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;
use WP_REST_Request;

final class Contact_Route_Test extends Plugin_Test_Case {

	/** @var Fake_Service|null The real service's answers, for the tests that need them instead of the stub's. */
	private $service;

	protected function setUp(): void {
		parent::setUp();
		// A fresh visitor address per test: each has its own rate-limit counter.
		$_SERVER['REMOTE_ADDR'] = '192.0.2.' . wp_rand( 1, 254 ) . '.' . wp_rand( 1, 99999 );
	}

	protected function tearDown(): void {
		if ( $this->service ) {
			$this->service->stop();
		}
		remove_all_filters( 'sitebeam_contact_rate_limit' );
		$_SERVER['REMOTE_ADDR'] = '127.0.0.1';
		parent::tearDown();
	}

	public function test_a_valid_post_is_sent_to_the_configured_recipient_with_visitor_text_escaped() {
		$response = $this->post_json( array( 'message' => "Hi <script>alert(1)</script>\nSecond line" ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame(
			array(
				'status'  => 'ok',
				'message' => Settings::get()['contact_success'],
			),
			$response->get_data()
		);
		$messages = Stub::messages();
		$this->assertCount( 1, $messages );
		$this->assertSame( 'owner@example.com', $messages[0]['to'] );
		$this->assertSame( 'visitor@example.com', $messages[0]['replyto'] );
		$this->assertSame( '[Sitebeam test site] Question', $messages[0]['subject'] );
		$this->assertStringContainsString( 'Hi &lt;script&gt;alert(1)&lt;/script&gt;<br>', $messages[0]['content'] );
		$this->assertStringNotContainsString( '<script>', $messages[0]['content'] );
		$this->assertStringContainsString( 'visitor@example.com', $messages[0]['content'], 'the address is in the body too' );
	}

	/**
	 * @dataProvider invalid_fields
	 *
	 * @param array<string, mixed>  $fields Changed fields.
	 * @param string                $field  The field named in the error.
	 */
	#[DataProvider( 'invalid_fields' )]
	public function test_a_field_breaking_its_rule_is_named( array $fields, $field ) {
		$response = $this->post_json( $fields );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'invalid_field', $response->get_data()['i18n_code'] );
		$this->assertSame( $field, $response->get_data()['field'] );
		$this->assertSame( 'ko', $response->get_data()['status'] );
		$this->assertSame( array(), Stub::messages() );
	}

	/**
	 * @return array<string, array{0: array<string, string|null>, 1: string}>
	 */
	public static function invalid_fields() {
		return array(
			'missing name'        => array( array( 'name' => null ), 'name' ),
			'name with a newline' => array( array( 'name' => "Eve\r\nBcc: x@example.com" ), 'name' ),
			'name too long'       => array( array( 'name' => str_repeat( 'n', 201 ) ), 'name' ),
			'email list'          => array( array( 'email' => 'a@example.com, b@example.com' ), 'email' ),
			'email display name'  => array( array( 'email' => 'Eve <eve@example.com>' ), 'email' ),
			'subject too long'    => array( array( 'subject' => str_repeat( 's', 201 ) ), 'subject' ),
			'empty message'       => array( array( 'message' => '   ' ), 'message' ),
			'message too long'    => array( array( 'message' => str_repeat( 'm', 10001 ) ), 'message' ),
			'name with VT'        => array( array( 'name' => "Eve\x0B" ), 'name' ),
			'name with NUL'       => array( array( 'name' => "Eve\x00" ), 'name' ),
			'name with NEL'       => array( array( 'name' => "Eve\u{85}Bcc" ), 'name' ),
			'subject with U+2028' => array( array( 'subject' => "Hi\u{2028}there" ), 'subject' ),
			'subject with U+2029' => array( array( 'subject' => "Hi\u{2029}there" ), 'subject' ),
			'subject with a tab'  => array( array( 'subject' => "Hi\tthere" ), 'subject' ),
			'message with VT'     => array( array( 'message' => "Hello\x0B" ), 'message' ),
			'non-ASCII local'     => array( array( 'email' => 'josé@example.com' ), 'email' ),
			'one-letter TLD'      => array( array( 'email' => 'a@b.c' ), 'email' ),
			'not a dot-atom'      => array( array( 'email' => 'a..b@example.com' ), 'email' ),
			'special-use domain'  => array( array( 'email' => 'ana@shop.local' ), 'email' ),
			'name not a string'   => array( array( 'name' => 42 ), 'name' ),
		);
	}

	public function test_a_visitor_address_the_service_would_refuse_is_refused_at_once_asking_for_another() {
		$response = $this->post_json( array( 'email' => 'ana@shop.test' ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'email', $response->get_data()['field'] );
		$this->assertStringContainsString( 'please use another address', $response->get_data()['error'] );
		$this->assertSame( array(), Stub::messages() );
	}

	public function test_invalid_utf8_is_refused_naming_the_field_never_emptied() {
		$request = $this->request( array() );
		$request->set_header( 'content-type', 'application/x-www-form-urlencoded' );
		$request->set_body_params( array_merge( self::contact_post(), array( 'subject' => "Hi \xFF there" ) ) );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'subject', $response->get_data()['field'] );
		$this->assertSame( array(), Stub::messages() );
	}

	public function test_filled_honeypot_is_spam() {
		$this->assert_refused( $this->post_json( array( 'homepage' => 'http://spam.example' ) ), 400, 'spam_suspected' );
	}

	public function test_a_post_without_a_genuine_ticket_old_enough_is_spam_naming_the_ticket() {
		add_filter(
			'sitebeam_contact_rate_limit',
			static function () {
				return array(
					'max'    => 10,
					'window' => 60,
				);
			}
		);
		$now_ms = (int) floor( microtime( true ) * 1000 );
		foreach ( array(
			'missing'   => null,
			'too fresh' => Ticket::issue( $now_ms - 1000 ),
			'expired'   => Ticket::issue( $now_ms - ( Contract::CONTACT_TICKET_MAX_AGE_S + 60 ) * 1000 ),
			'future'    => Ticket::issue( $now_ms + 60000 ),
			'forged'    => ( $now_ms - 10000 ) . '.' . str_repeat( 'A', 43 ),
			'aged'      => ( $now_ms - 70000 ) . '.' . explode( '.', Ticket::issue( $now_ms - 10000 ) )[1],
		) as $case => $ticket ) {
			$response = $this->post_json( array( Contract::CONTACT_FIELD_TICKET => $ticket ) );
			$this->assert_refused( $response, 400, 'spam_suspected' );
			$this->assertSame( 'ticket', $response->get_data()['field'], $case );
		}
		$this->assertSame( 200, $this->post_json( array() )->get_status() );
	}

	public function test_get_answers_a_fresh_ticket_never_cached() {
		$response = rest_get_server()->dispatch( new WP_REST_Request( 'GET', '/sitebeam/v1/contact' ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( 'no-store', $response->get_headers()['Cache-Control'] );
		$this->assertSame( 'ok', $response->get_data()['status'] );
		$this->assertFalse( Ticket::is_valid( $response->get_data()['ticket'] ), 'too fresh to post with at once' );
	}

	public function test_wrong_nonce_or_foreign_origin_is_forbidden() {
		$this->assert_refused( $this->post_json( array( Form_Nonce::FIELD => 'forged' ) ), 403, 'forbidden_origin' );
		$this->assert_refused( $this->post_json( array(), array( 'origin' => 'https://evil.example' ) ), 403, 'forbidden_origin' );
		$this->assert_refused( $this->post_json( array(), array( 'referer' => 'https://evil.example/page' ) ), 403, 'forbidden_origin' );
		$this->assertSame( 200, $this->post_json( array(), array( 'origin' => untrailingslashit( home_url() ) ) )->get_status() );
	}

	public function test_every_post_counts_towards_the_rate_limit() {
		add_filter(
			'sitebeam_contact_rate_limit',
			static function () {
				return array(
					'max'    => 2,
					'window' => 60,
				);
			}
		);
		$this->assertSame( 400, $this->post_json( array( 'name' => '' ) )->get_status() );
		$this->assertSame( 200, $this->post_json( array() )->get_status() );
		$limited = $this->post_json( array() );
		$this->assert_refused( $limited, 429, 'rate_limited' );
		$this->assertGreaterThan( 0, (int) $limited->get_headers()['Retry-After'] );
	}

	public function test_without_token_the_form_is_not_configured() {
		update_option( Settings::TOKEN_OPTION, '', false );
		$this->assert_refused( $this->post_json( array() ), 503, 'not_configured' );
	}

	public function test_api_errors_never_reach_the_visitor_as_they_are() {
		Stub::faults(
			array(
				'status'        => 500,
				'body_contains' => 'Never-verbatim',
			)
		);
		$response = $this->post_json( array( 'name' => 'Never-verbatim' ) );
		// A passing failure keeps the message in the outbox: received (202 queued), and still nothing of the API's.
		$this->assertSame( 202, $response->get_status() );
		$this->assertTrue( $response->get_data()['queued'] );
		$this->assertStringNotContainsString( 'owner@example.com', (string) wp_json_encode( $response->get_data() ) );
		$this->assertStringNotContainsString( 'injected', (string) wp_json_encode( $response->get_data() ) );
		self::empty_outbox();

		Stub::reset();
		update_option( Settings::TOKEN_OPTION, 'wrong-token', false );
		$this->assert_refused( $this->post_json( array() ), 503, 'not_configured' );
	}

	public function test_form_post_without_javascript_redirects_back_with_sent() {
		$request = $this->request( array() );
		$request->set_header( 'content-type', 'application/x-www-form-urlencoded' );
		$request->set_header( 'referer', home_url( '/contact/?sent=1' ) );
		$request->set_body_params( self::contact_post() );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 303, $response->get_status() );
		$this->assertSame( home_url( '/contact/?sent=1' ), $response->get_headers()['Location'] );
		$this->assertCount( 1, Stub::messages() );
	}

	public function test_a_message_kept_for_later_is_received_not_sent_with_and_without_javascript() {
		Stub::faults(
			array(
				'status'        => 503,
				'body_contains' => 'Kept-for-later',
			)
		);
		$received = 'Thanks, we received your message.';
		$response = $this->post_json( array( 'name' => 'Kept-for-later' ) );
		$this->assertSame( 202, $response->get_status() );
		$this->assertSame(
			array(
				'status'  => 'ok',
				'queued'  => true,
				'message' => $received,
			),
			$response->get_data()
		);

		$request = $this->request( array() );
		$request->set_header( 'content-type', 'application/x-www-form-urlencoded' );
		$request->set_header( 'referer', home_url( '/contact/' ) );
		$request->set_body_params( self::contact_post( array( 'name' => 'Kept-for-later' ) ) );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 303, $response->get_status() );
		$this->assertSame( home_url( '/contact/?sent=1&queued=1' ), $response->get_headers()['Location'] );
		$_GET = array(
			'sent'   => '1',
			'queued' => '1',
		);
		$page = \Sitebeam\Contact\Contact_Form::render();
		$_GET = array();
		$this->assertStringContainsString( '<p class="sitebeam-contact__sent" role="status">' . $received . '</p>', $page );
		$this->assertStringNotContainsString( '>' . Settings::get()['contact_success'] . '</p>', $page );
		self::empty_outbox();
	}

	public function test_other_media_types_and_methods_are_refused() {
		$request = $this->request( array() );
		$request->set_header( 'content-type', 'text/plain' );
		$request->set_body( 'name=Eve' );
		$this->assert_refused( rest_get_server()->dispatch( $request ), 415, 'unsupported_media_type' );

		$refused = rest_get_server()->dispatch( new WP_REST_Request( 'PUT', '/sitebeam/v1/contact' ) );
		$this->assert_refused( $refused, 405, 'method_not_allowed' );
		$this->assertSame( 'GET, POST, OPTIONS', $refused->get_headers()['Allow'] );
	}

	public function test_the_contact_route_names_the_field_the_service_refused_and_keeps_a_message_its_failures_could_not_take() {
		$this->set_settings( array( 'api_url' => 'https://api.example.com' ) );
		$this->service = new Fake_Service();
		$this->service->answer( Contract::PATH_EMAIL, 422, Fake_Service::INVALID_REPLYTO );
		$response = $this->post_json( array() );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( Contract::CONTACT_ERROR_INVALID_FIELD, $response->get_data()['i18n_code'] );
		$this->assertSame( Contract::CONTACT_FIELD_EMAIL, $response->get_data()['field'] );
		$this->assertStringContainsString( 'value is not a valid email address', $response->get_data()['error'] );
		$this->assertSame( Send_Log::FAILED, Send_Log::entries()[0]['result'] );

		$this->service->answer( Contract::PATH_EMAIL, 422, Fake_Service::INVALID_TO );
		$this->assertSame( Contract::CONTACT_ERROR_NOT_CONFIGURED, $this->post_json( array() )->get_data()['i18n_code'], 'the recipient is the owner’s setting' );

		$this->assertSame( array(), \Sitebeam\Mail\Outbox::rows(), 'a refusal for good is never kept' );

		// A passing failure keeps the message in the outbox: 202 queued (contact-protocol.md).
		$this->service->answer( Contract::PATH_EMAIL, 500, Fake_Service::INTERNAL_ERROR );
		$response = $this->post_json( array() );
		$this->assertSame( 202, $response->get_status() );
		$this->assertTrue( $response->get_data()['queued'] );
		$this->assertCount( 1, \Sitebeam\Mail\Outbox::rows() );
		self::empty_outbox();

		$this->service->answer( Contract::PATH_EMAIL, 200, Fake_Service::EMAIL_SENT );
		$this->assertSame( 200, $this->post_json( array() )->get_status() );
	}

	/**
	 * @param \WP_REST_Response $response Route answer.
	 * @param int               $status   Expected status.
	 * @param string            $code     Expected i18n_code.
	 */
	private function assert_refused( $response, $status, $code ) {
		$this->assertSame( $status, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'ko', $response->get_data()['status'] );
		$this->assertSame( $code, $response->get_data()['i18n_code'] );
		$this->assertNotEmpty( $response->get_data()['error'] );
	}

	/**
	 * @param array<string, string|null> $changes Fields over a valid post; null removes one.
	 * @param array<string, string>      $headers Extra headers.
	 */
	private function post_json( array $changes, array $headers = array() ) {
		$request = $this->request( $headers );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body( (string) wp_json_encode( self::contact_post( $changes ) ) );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * @param array<string, string> $headers Headers.
	 */
	private function request( array $headers ) {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/contact' );
		foreach ( $headers as $name => $value ) {
			$request->set_header( $name, $value );
		}
		return $request;
	}
}
