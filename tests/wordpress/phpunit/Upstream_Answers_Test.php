<?php
/**
 * The plugin against the answers of the real service (comworkio/cwcloud-api, releases 3.16.15 and 3.15.24), faked at
 * the HTTP layer with their exact bodies: a 422 `detail` list names the field, any 2xx with status ok is success, a
 * load answered 202 without a state ends, an AI API absent or not enabled is said as that, Test connection reports
 * email and AI apart without sending, and addresses at special-use domains are refused before any call.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Contract;
use Sitebeam\Mail\Send_Log;
use WP_REST_Request;

final class Upstream_Answers_Test extends Plugin_Test_Case {

	/** @var Fake_Service */
	private $service;

	protected function setUp(): void {
		parent::setUp();
		$this->set_settings( array( 'api_url' => 'https://api.example.com' ) );
		$this->service = new Fake_Service();
	}

	protected function tearDown(): void {
		$this->service->stop();
		parent::tearDown();
	}

	public function test_a_422_detail_list_names_the_field_and_the_service_reason() {
		$this->service->answer( Contract::PATH_EMAIL, 422, Fake_Service::INVALID_TO );
		$error                                 = $this->client()->send_email( $this->message( 'someone@example.com' ) );
		$this->assertInstanceOf( \WP_Error::class, $error );
		$this->assertSame( Contract::ERROR_INVALID_PAYLOAD, $error->get_error_code() );
		$this->assertSame( 'to', $error->get_error_data()['field'] );
		$this->assertSame( 'The instance refused the field “to” of the message: value is not a valid email address.', Api_Messages::describe( $error ) );
	}

	public function test_an_email_sent_without_an_id_and_a_201_are_success() {
		$this->service->answer( Contract::PATH_EMAIL, 200, Fake_Service::EMAIL_SENT );
		$this->assertSame( Fake_Service::EMAIL_SENT, $this->client()->send_email( $this->message( 'someone@example.com' ) ) );
		$this->service->answer( Contract::PATH_PROMPT, 201, Fake_Service::PROMPT_ANSWERED );
		$this->assertSame( array( 'response' => array( 'Hello there' ) ), $this->client()->prompt( 'gpt2', 'Hi', array() ), 'a null score is left out' );
	}

	public function test_the_services_own_failures_and_refusals_read_as_what_they_are() {
		$cases = array(
			'401 without status'      => array( 401, Fake_Service::AUTH_FAILED, 'the token is wrong' ),
			'403 not_cwaiapi'         => array( 403, Fake_Service::NOT_CWAIAPI, 'The AI API is not enabled for this account' ),
			'405 cwai_not_implemened' => array( 405, Fake_Service::AI_NOT_IN_CE, 'release has no AI API' ),
			'500 Internal error'      => array( 500, Fake_Service::INTERNAL_ERROR, 'The instance failed to answer (HTTP 500): try again in a moment.' ),
			'404 model not found'     => array( 404, Fake_Service::MODEL_NOT_FOUND, 'The instance does not have this model' ),
		);
		foreach ( $cases as $case => list( $status, $body, $sentence ) ) {
			$this->service->answer( Contract::PATH_PROMPT, $status, $body );
			$error                                  = $this->client()->prompt( 'gpt2', 'Hi', array() );
			$this->assertInstanceOf( \WP_Error::class, $error, $case );
			$this->assertStringContainsString( $sentence, Api_Messages::describe( $error ), $case );
			$this->assertStringNotContainsString( 'cannot be reached', Api_Messages::describe( $error ), $case );
		}
		$this->service->answer( Contract::PATH_PROMPT, 502, array() );
		$this->assertSame( Api_Client::ERROR_UNEXPECTED, $this->client()->prompt( 'gpt2', 'Hi', array() )->get_error_code(), 'a status alone tells no server apart' );
	}

	public function test_test_connection_proves_the_token_and_reports_email_and_ai_apart_without_sending() {
		$this->service->answer( Contract::PATH_EMAIL, 422, Fake_Service::MISSING_FIELDS );
		$this->service->answer( Contract::PATH_MODELS, 200, Fake_Service::MODELS );
		$this->assertSame(
			array(
				'email' => true,
				'ai'    => true,
			),
			$this->client()->check_connection()
		);
		$this->assertSame( array(), $this->service->requests[0]['body'], 'the probe is a message with no field, which nothing can send' );

		$this->service->answer( Contract::PATH_MODELS, 405, Fake_Service::AI_NOT_IN_CE );
		$result                                 = $this->client()->check_connection();
		$this->assertTrue( $result['email'] );
		$this->assertSame( Contract::ERROR_CWAI_NOT_IMPLEMENED, $result['ai']->get_error_code() );

		$this->service->answer( Contract::PATH_MODELS, 403, Fake_Service::NOT_CWAIAPI );
		$this->assertSame( Contract::ERROR_NOT_CWAIAPI, $this->client()->check_connection()['ai']->get_error_code() );

		$this->service->answer( Contract::PATH_EMAIL, 403, Fake_Service::NOT_EMAILAPI );
		$this->service->answer( Contract::PATH_MODELS, 200, Fake_Service::MODELS );
		$result                                 = $this->client()->check_connection();
		$this->assertSame( Contract::ERROR_NOT_EMAILAPI, $result['email']->get_error_code() );
		$this->assertTrue( $result['ai'], 'email not enabled does not hide that AI works' );

		$this->service->requests                        = array();
		$this->service->answer( Contract::PATH_EMAIL, 401, Fake_Service::AUTH_FAILED );
		$result                                = $this->client()->check_connection();
		$this->assertSame( Contract::ERROR_AUTH_FAILED, $result['email']->get_error_code() );
		$this->assertNull( $result['ai'] );
		$this->assertCount( 1, $this->service->requests, 'a refused token is not tried again on the AI API' );
		$this->assertSame( Contract::PATH_EMAIL, $this->service->requests[0]['path'] );
	}

	public function test_the_console_load_ends_on_the_services_202_and_prompts_leave_a_null_score_out() {
		wp_set_current_user( 1 );
		$this->service->answer( Contract::PATH_MODEL_PREFIX . 'gpt2', 202, Fake_Service::LOAD_STARTED );
		$response = rest_do_request( new WP_REST_Request( 'GET', '/sitebeam/v1/console/models/gpt2' ) );
		$this->assertSame( 202, $response->get_status() );
		$this->assertSame( array( 'state' => Api_Client::MODEL_LOAD_STARTED ), $response->get_data() );

		$this->service->answer( Contract::PATH_MODEL_PREFIX . 'gpt2', 404, Fake_Service::MODEL_NOT_FOUND );
		$response = rest_do_request( new WP_REST_Request( 'GET', '/sitebeam/v1/console/models/gpt2' ) );
		$this->assertSame( 502, $response->get_status() );
		$this->assertStringContainsString( 'does not have this model', $response->get_data()['message'] );

		$this->service->answer( Contract::PATH_PROMPT, 201, Fake_Service::PROMPT_ANSWERED );
		$request                                = new WP_REST_Request( 'POST', '/sitebeam/v1/console/prompt' );
		$request->set_body_params(
			array(
				'model'    => 'gpt2',
				'message'  => 'Hi',
				'settings' => array( 'num_beams' => '3' ),
			)
		);
		$response = rest_do_request( $request );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame(
			array(
				'model'    => 'gpt2',
				'response' => array( 'Hello there' ),
			),
			$response->get_data()
		);
		$this->assertEquals( (object) array( 'num_beans' => 3 ), (object) end( $this->service->requests )['body']['settings'], 'num_beams is sent under the service’s name' );
		wp_set_current_user( 0 );
	}

	public function test_a_site_mail_to_a_special_use_domain_is_refused_naming_it_and_never_sent() {
		$this->set_settings( array( 'fallback' => false ) );
		$failures = array();
		add_action(
			'wp_mail_failed',
			static function ( $error ) use ( &$failures ) {
				$failures[] = $error->get_error_message();
			}
		);
		$this->assertFalse( wp_mail( 'ann@shop.test', 'Hello', 'Body' ) );
		$this->assertSame( array(), $this->service->requests, 'nothing is sent to the service' );
		$this->assertCount( 1, $failures );
		$this->assertStringContainsString( 'ann@shop.test', $failures[0] );
		$this->assertStringContainsString( '.test is a special-use domain', $failures[0] );
		$this->assertSame( Send_Log::FAILED, Send_Log::entries()[0]['result'] );
	}

	private function client() {
		return new Api_Client( 'https://api.example.com', 'secret-token' );
	}

	/**
	 * @param string $to Recipient.
	 */
	private function message( $to ) {
		return array(
			Contract::EMAIL_FIELD_TO      => $to,
			Contract::EMAIL_FIELD_SUBJECT => 'Hello',
		);
	}
}
