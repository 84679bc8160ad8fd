<?php
/**
 * Test connection, the mailer and the AI calls against the real service (upstream cwcloud-api served by
 * tests/support/upstream.sh: start_upstream RELEASE exports SITEBEAM_UPSTREAM_URL and its tokens; the caller sets
 * SITEBEAM_UPSTREAM_RELEASE). Without it every test here is skipped, saying why.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Api_Client;
use Sitebeam\Contract;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

final class Upstream_Service_Test extends Plugin_Test_Case {

	/** @var string */
	private $release;

	protected function setUp(): void {
		parent::setUp();
		$this->release = (string) getenv( 'SITEBEAM_UPSTREAM_RELEASE' );
		if ( ! getenv( 'SITEBEAM_UPSTREAM_URL' ) || '' === $this->release ) {
			$this->markTestSkipped( 'SKIPPED: no real service (start_upstream RELEASE, then set SITEBEAM_UPSTREAM_RELEASE)' );
		}
	}

	public function test_test_connection_proves_the_token_without_sending_and_reports_ai_apart() {
		$result = $this->client( 'SITEBEAM_UPSTREAM_TOKEN' )->check_connection();
		$this->assertTrue( $result['email'] );
		if ( Contract::UPSTREAM_CE_RELEASE === $this->release ) {
			$this->assertSame( Contract::ERROR_CWAI_NOT_IMPLEMENED, $result['ai']->get_error_code() );
		} else {
			$this->assertTrue( $result['ai'] );
			$this->assertSame( Contract::ERROR_NOT_CWAIAPI, $this->client( 'SITEBEAM_UPSTREAM_TOKEN_WITHOUT_AI' )->check_connection()['ai']->get_error_code() );
		}

		$refused = ( new Api_Client( getenv( 'SITEBEAM_UPSTREAM_URL' ), 'not-a-token', true ) )->check_connection();
		$this->assertSame( Contract::ERROR_AUTH_FAILED, $refused['email']->get_error_code() );
		$this->assertNull( $refused['ai'] );
		$unconfirmed = $this->client( 'SITEBEAM_UPSTREAM_TOKEN_UNCONFIRMED' )->check_connection();
		$this->assertSame( Contract::ERROR_ACCOUNT_NOT_CONFIRMED, $unconfirmed['email']->get_error_code() );
	}

	public function test_the_service_sends_a_site_mail_and_its_422_names_the_field() {
		$this->use_service();
		$this->assertTrue( wp_mail( 'ann@example.com', 'Hello', 'Body' ) );
		$this->assertSame( Send_Log::SENT, Send_Log::entries()[0]['result'] );

		$error = Api_Client::from_settings()->send_email(
			array(
				Contract::EMAIL_FIELD_TO      => 'ann@shop.test',
				Contract::EMAIL_FIELD_SUBJECT => 'Hello',
			)
		);
		$this->assertSame( Contract::ERROR_INVALID_PAYLOAD, $error->get_error_code() );
		$this->assertSame( 'to', $error->get_error_data()['field'] );
		$this->assertSame( 422, $error->get_error_data()['status'] );
	}

	public function test_loads_and_prompts_read_as_the_service_answers_them() {
		$client = $this->client( 'SITEBEAM_UPSTREAM_TOKEN' );
		if ( Contract::UPSTREAM_CE_RELEASE === $this->release ) {
			// 3.16.15 has no model-load route at all: FastAPI's own 404.
			$this->assertSame( Contract::ERROR_NOT_FOUND, $client->load_model( 'gpt2' )->get_error_code() );
			$this->assertSame( Contract::ERROR_CWAI_NOT_IMPLEMENED, $client->prompt( 'gpt2', 'Hi', array() )->get_error_code() );
			return;
		}
		$this->assertSame( Api_Client::MODEL_LOAD_STARTED, $client->load_model( 'gpt2' ) );
		$this->assertSame( Contract::ERROR_CWAI_MODEL_NOTFOUND, $client->load_model( 'no-such-model' )->get_error_code() );
		$this->assertSame( Api_Client::ERROR_SERVER, $client->prompt( 'no-such-model', 'Hi', array() )->get_error_code() );
	}

	/**
	 * A client of the service with one of its tokens.
	 *
	 * @param string $token_variable The environment variable holding the token.
	 */
	private function client( $token_variable ) {
		return new Api_Client( getenv( 'SITEBEAM_UPSTREAM_URL' ), getenv( $token_variable ), true );
	}

	/** The plugin's settings point at the service. */
	private function use_service() {
		$this->set_settings(
			array(
				'api_url'    => getenv( 'SITEBEAM_UPSTREAM_URL' ),
				'route_mail' => true,
				'fallback'   => false,
			)
		);
		update_option( Settings::TOKEN_OPTION, getenv( 'SITEBEAM_UPSTREAM_TOKEN' ), false );
	}
}
