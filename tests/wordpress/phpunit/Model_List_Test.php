<?php
/**
 * The instance's model list is remembered for the settings page and the chat console: one request, per instance and
 * token; a failure is never remembered, and saving the settings asks again.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Chat_Console;
use Sitebeam\Admin\Chat_Settings_Fields;
use Sitebeam\Admin\Settings_Sanitizer;
use Sitebeam\Chat\Model_List;
use Sitebeam\Settings;

final class Model_List_Test extends Plugin_Test_Case {

	/** @var string[] Every model list the plugin asked for. */
	private $asked = array();

	/** @var callable */
	private $watch;

	protected function setUp(): void {
		parent::setUp();
		$this->watch = function ( $preempt, $args, $url ) {
			if ( '/v1/ai/models' !== wp_parse_url( $url, PHP_URL_PATH ) ) {
				return $preempt;
			}
			$this->asked[] = $url;
			if ( 'other.example' !== wp_parse_url( $url, PHP_URL_HOST ) ) {
				return $preempt;
			}
			return array(
				'headers'  => array(),
				'body'     => '{"status":"ok","models":["other-model"]}',
				'response' => array(
					'code'    => 200,
					'message' => 'OK',
				),
				'cookies'  => array(),
				'filename' => null,
			);
		};
		add_filter( 'pre_http_request', $this->watch, 10, 3 );
	}

	protected function tearDown(): void {
		remove_filter( 'pre_http_request', $this->watch );
		wp_set_current_user( 0 );
		parent::tearDown();
	}

	public function test_the_settings_page_asks_the_instance_once_then_remembers_the_list() {
		$first = $this->render_models();
		$this->assertStringContainsString( 'value="textblobsentiment"', $first );
		$this->assertSame( $first, $this->render_models() );
		$this->assertSame( array( Stub::url() . '/v1/ai/models' ), $this->asked );
	}

	public function test_the_chat_console_shares_the_remembered_list() {
		wp_set_current_user( (int) get_user_by( 'login', getenv( 'SITEBEAM_WP_ADMIN_USER' ) )->ID );
		$this->render_models();
		ob_start();
		Chat_Console::render();
		$this->assertStringContainsString( '>textblobsentiment</option>', (string) ob_get_clean() );
		$this->assertCount( 1, $this->asked );
	}

	public function test_another_instance_url_or_token_asks_again() {
		$this->render_models();
		$this->set_settings( array( 'api_url' => 'https://other.example' ) );
		$this->assertStringContainsString( 'value="other-model"', $this->render_models() );
		$this->assertStringNotContainsString( 'value="textblobsentiment"', $this->render_models() );
		update_option( Settings::TOKEN_OPTION, 'another-token', false );
		$this->render_models();
		$this->assertSame( array( Stub::url() . '/v1/ai/models', 'https://other.example/v1/ai/models', 'https://other.example/v1/ai/models' ), $this->asked );
	}

	public function test_a_failure_is_not_remembered() {
		// A GET carries no body: this test's first request carries a header of its own, which the fault matches.
		$mark = static function ( $args ) {
			$args['headers']['X-Sitebeam-Test'] = 'a-failure-is-not-remembered';
			return $args;
		};
		Stub::faults(
			array(
				'method'      => 'GET',
				'path_prefix' => '/v1/ai/models',
				'status'      => 503,
				'times'       => 1,
				'headers'     => array( 'X-Sitebeam-Test' => 'a-failure-is-not-remembered' ),
			)
		);
		add_filter( 'http_request_args', $mark );
		try {
			$failed = $this->render_models();
		} finally {
			remove_filter( 'http_request_args', $mark );
		}
		$this->assertStringContainsString( 'could not be listed', $failed );
		$this->assertFalse( get_transient( Model_List::TRANSIENT ) );
		$this->assertStringContainsString( 'value="textblobsentiment"', $this->render_models() );
		$this->assertCount( 2, $this->asked );
	}

	public function test_saving_the_settings_asks_again() {
		$this->render_models();
		Settings_Sanitizer::sanitize( array() );
		$this->render_models();
		$this->assertCount( 2, $this->asked );
	}

	private function render_models() {
		ob_start();
		Chat_Settings_Fields::render_models( 'sitebeam_settings[chat_models]', array() );
		return (string) ob_get_clean();
	}
}
