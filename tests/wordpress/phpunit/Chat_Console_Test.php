<?php
/**
 * The chat console's capability and REST routes, against the real stub: only users with sitebeam_use_chat may list,
 * load and prompt any model, with any prompt setting.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Chat\Chat_Capability;
use WP_REST_Request;

final class Chat_Console_Test extends Plugin_Test_Case {

	protected function tearDown(): void {
		wp_set_current_user( 0 );
		parent::tearDown();
	}

	public function test_administrators_got_the_capability_on_activation_and_others_not() {
		$this->assertTrue( get_role( 'administrator' )->has_cap( Chat_Capability::CAPABILITY ) );
		$this->assertFalse( get_role( 'editor' )->has_cap( Chat_Capability::CAPABILITY ) );
		$this->assertSame( Chat_Capability::VERSION, (int) get_option( Chat_Capability::VERSION_OPTION ) );
	}

	public function test_a_removed_capability_stays_removed_and_an_upgrade_grants_it_once() {
		$role = get_role( 'administrator' );
		try {
			$role->remove_cap( Chat_Capability::CAPABILITY );
			Chat_Capability::maybe_grant();
			$this->assertFalse( get_role( 'administrator' )->has_cap( Chat_Capability::CAPABILITY ), 'the site removed it' );
			delete_option( Chat_Capability::VERSION_OPTION ); // A site that had the plugin before the chat.
			Chat_Capability::maybe_grant();
			$this->assertTrue( get_role( 'administrator' )->has_cap( Chat_Capability::CAPABILITY ) );
		} finally {
			Chat_Capability::grant();
		}
	}

	public function test_users_without_the_capability_are_refused_on_every_route() {
		wp_set_current_user( (int) get_user_by( 'login', 'subscriber' )->ID );
		foreach ( $this->requests() as $request ) {
			$response = rest_get_server()->dispatch( $request );
			$this->assertSame( 403, $response->get_status(), $request->get_route() );
		}
		wp_set_current_user( 0 );
		foreach ( $this->requests() as $request ) {
			$this->assertSame( 401, rest_get_server()->dispatch( $request )->get_status(), $request->get_route() );
		}
	}

	public function test_the_team_lists_loads_and_prompts_any_model_with_any_setting() {
		$this->log_in_admin();
		list( $models, $load, $prompt ) = array_map( array( rest_get_server(), 'dispatch' ), $this->requests() );
		$this->assertSame( array( 'models' => array( 'mock', 'log', 'nltksentiment', 'textblobsentiment' ) ), $models->get_data() );
		// The service answers a load 202 without telling progress, as the stub now does.
		$this->assertSame( 202, $load->get_status() );
		$this->assertSame( array( 'state' => 'started' ), $load->get_data() );
		$this->assertSame( 200, $prompt->get_status(), wp_json_encode( $prompt->get_data() ) );
		$this->assertSame( 'nltksentiment', $prompt->get_data()['model'] );
		$this->assertIsArray( $prompt->get_data()['response'] );
		$this->assertGreaterThan( 0, $prompt->get_data()['score'], 'a happy sentence' );
		foreach ( array( $models, $load, $prompt ) as $response ) {
			$this->assertStringNotContainsString( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), wp_json_encode( array( $response->get_data(), $response->get_headers() ) ) );
		}
	}

	public function test_a_mistyped_setting_is_named_and_nothing_is_sent() {
		$this->log_in_admin();
		$request = $this->prompt_request( array( 'max_length' => 'long' ) );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 400, $response->get_status() );
		$this->assertStringContainsString( 'max_length', $response->get_data()['message'] );
	}

	public function test_api_failures_are_explained_and_a_loading_model_keeps_its_code() {
		$this->log_in_admin();
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		$response = rest_get_server()->dispatch( new WP_REST_Request( 'GET', '/sitebeam/v1/console/models' ) );
		$this->assertSame( 502, $response->get_status() );
		$this->assertStringContainsString( 'cannot be reached', $response->get_data()['message'] );
	}

	/**
	 * The console's three requests: list, load nltksentiment, prompt it.
	 *
	 * @return WP_REST_Request[]
	 */
	private function requests() {
		return array(
			new WP_REST_Request( 'GET', '/sitebeam/v1/console/models' ),
			new WP_REST_Request( 'GET', '/sitebeam/v1/console/models/nltksentiment' ),
			$this->prompt_request(
				array(
					'max_length'  => '30',
					'temperature' => '0.5',
					'do_sample'   => 'true',
				)
			),
		);
	}

	/**
	 * A prompt to nltksentiment.
	 *
	 * @param array<string, string> $settings Settings as typed in the console.
	 */
	private function prompt_request( array $settings ) {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/console/prompt' );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body(
			wp_json_encode(
				array(
					'model'    => 'nltksentiment',
					'message'  => 'What a wonderful, lovely day',
					'settings' => $settings,
				)
			)
		);
		return $request;
	}

	private function log_in_admin() {
		wp_set_current_user( (int) get_user_by( 'login', getenv( 'SITEBEAM_WP_ADMIN_USER' ) )->ID );
	}
}
