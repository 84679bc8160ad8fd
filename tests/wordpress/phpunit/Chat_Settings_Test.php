<?php
/**
 * The settings page's Chat section: models saved as identifiers with the default first, prompt settings typed as
 * the contract says (a wrong type is refused with a notice naming the setting), the chat rate limit.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Chat_Settings_Fields;
use Sitebeam\Admin\Settings_Fields;
use Sitebeam\Admin\Settings_Sanitizer;
use Sitebeam\Chat\Chat_Config;
use Sitebeam\Chat\Daily_Budget;
use Sitebeam\Settings;

final class Chat_Settings_Test extends Plugin_Test_Case {

	public function test_allowed_models_are_identifiers_with_the_chosen_default_first() {
		$clean = $this->sanitize(
			array(
				'chat_enabled'       => '1',
				'chat_models'        => array( 'mock', 'nltksentiment', 'bad model<script>', array( 'x' ) ),
				'chat_default_model' => 'nltksentiment',
			)
		);
		$this->assertTrue( $clean['chat_enabled'] );
		$this->assertSame( array( 'nltksentiment', 'mock' ), $clean['chat_models'] );
		$this->assertSame( array( 'sitebeam_chat_models', 'sitebeam_chat_models' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
		$this->assertStringContainsString( '“bad model” is not a model identifier', get_settings_errors( Settings::OPTION )[0]['message'] );
		$this->assertArrayNotHasKey( 'chat_default_model', $clean );
	}

	public function test_prompt_settings_are_typed_and_a_wrong_type_is_named_and_keeps_the_previous_value() {
		$this->set_settings( array( 'chat_settings' => array( 'top_k' => 5 ) ) );
		$clean = $this->sanitize(
			array(
				'chat_settings' => array(
					'max_length'     => '60',
					'temperature'    => '0.7',
					'do_sample'      => 'true',
					'early_stopping' => '',
					'top_k'          => '2.5',
					'top_p'          => '0',
					'num_beans'      => 'many',
					'made_up'        => '3',
				),
			)
		);
		$this->assertSame(
			array(
				'max_length'  => 60,
				'temperature' => 0.7,
				'do_sample'   => true,
				'top_k'       => 5,
			),
			$clean['chat_settings']
		);
		$errors = get_settings_errors( Settings::OPTION );
		$this->assertSame( array( 'sitebeam_chat_settings_num_beans', 'sitebeam_chat_settings_top_k', 'sitebeam_chat_settings_top_p' ), array_column( $errors, 'code' ) );
		$this->assertStringContainsString( 'The prompt setting num_beans must be a whole number of at least 1.', $errors[0]['message'] );
		$this->assertStringContainsString( 'The prompt setting top_p must be a number greater than 0.', $errors[2]['message'] );
	}

	public function test_the_service_spells_num_beans_and_num_beams_is_read_as_its_alias() {
		$this->assertSame( array( 'num_beans' => 3 ), $this->sanitize( array( 'chat_settings' => array( 'num_beams' => '3' ) ) )['chat_settings'] );
		$this->assertSame( array( 'num_beans' => 4 ), $this->sanitize( array( 'chat_settings' => array( 'num_beams' => '3', 'num_beans' => '4' ) ) )['chat_settings'] );
		$this->sanitize( array( 'chat_settings' => array( 'num_beams' => 'many' ) ) );
		$this->assertStringContainsString( 'The prompt setting num_beans must be a whole number', get_settings_errors( Settings::OPTION )[0]['message'] );
	}

	public function test_prompt_settings_saved_as_num_beams_are_sent_as_num_beans() {
		$this->set_settings( array( 'chat_settings' => array( 'num_beams' => 2, 'top_k' => 5 ) ) );
		$this->assertEquals( array( 'num_beans' => 2, 'top_k' => 5 ), Chat_Config::prompt_settings() );
		$this->assertEquals( array( 'num_beans' => 2, 'top_k' => 5 ), Settings::get()['chat_settings'] );
		$saved = $this->sanitize( array( 'chat_settings' => array( 'num_beans' => 'many' ) ) )['chat_settings'];
		$this->assertSame( array( 'num_beans' => 2 ), $saved, 'a refused value keeps the one saved under the old name' );
	}

	public function test_the_rate_limit_is_a_whole_number_from_1_to_1000() {
		$this->assertSame( 30, $this->sanitize( array( 'chat_rate_limit' => '30' ) )['chat_rate_limit'] );
		$stored = Settings::get()['chat_rate_limit'];
		$this->assertSame( $stored, $this->sanitize( array( 'chat_rate_limit' => '0' ) )['chat_rate_limit'] );
		$this->assertSame( $stored, $this->sanitize( array( 'chat_rate_limit' => '1e3' ) )['chat_rate_limit'] );
		$this->assertSame( array( 'sitebeam_chat_rate_limit', 'sitebeam_chat_rate_limit' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
	}

	public function test_the_daily_limit_is_500_unless_the_owner_sets_another_and_0_means_no_limit() {
		$stored = (array) get_option( Settings::OPTION );
		unset( $stored['chat_daily_limit'] );
		update_option( Settings::OPTION, $stored );
		$this->assertSame( 500, Chat_Config::daily_limit(), 'a new site' );
		$this->set_settings( array( 'chat_daily_limit' => '' ) );
		$this->assertSame( 500, Chat_Config::daily_limit(), 'a site that saved the form before there was a default' );
		$this->set_settings( array( 'chat_daily_limit' => 0 ) );
		$this->assertSame( 0, Chat_Config::daily_limit(), 'no limit, set on purpose' );

		$this->assertSame( 500, $this->sanitize( array( 'chat_daily_limit' => '' ) )['chat_daily_limit'] );
		$this->assertSame( 0, $this->sanitize( array( 'chat_daily_limit' => '0' ) )['chat_daily_limit'] );
		$this->assertSame( 40, $this->sanitize( array( 'chat_daily_limit' => ' 40 ' ) )['chat_daily_limit'] );
		$this->set_settings( array( 'chat_daily_limit' => 40 ) );
		$this->assertSame( 40, $this->sanitize( array( 'chat_daily_limit' => '-1' ) )['chat_daily_limit'] );
		$this->assertSame( array( 'sitebeam_chat_daily_limit' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
	}

	public function test_the_settings_page_shows_todays_count_beside_the_daily_limit() {
		global $wpdb;
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB -- the daily counter has no API to reset it.
		$this->set_settings( array( 'chat_daily_limit' => '' ) );
		for ( $i = 0; $i < 3; $i++ ) {
			$this->assertSame( 0, Daily_Budget::take( 500, time() ) );
		}
		ob_start();
		Settings_Fields::render( array( 'key' => 'chat_daily_limit' ) );
		$html = (string) ob_get_clean();
		$this->assertStringContainsString( 'Today (UTC): 3 messages of 500.', $html );
		$this->set_settings( array( 'chat_daily_limit' => 0 ) );
		ob_start();
		Settings_Fields::render( array( 'key' => 'chat_daily_limit' ) );
		$this->assertStringContainsString( 'Today (UTC): 3 messages, no limit.', (string) ob_get_clean() );
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB -- as above.
	}

	public function test_the_chat_defaults_come_from_the_contract_and_visitors_get_no_model_until_enabled() {
		$this->set_settings(
			array(
				'chat_models'   => array( 'mock' ),
				'chat_settings' => array(
					'max_length' => 10,
					'do_sample'  => 'yes',
				),
			)
		);
		$this->assertSame( array(), Chat_Config::models() );
		$this->set_settings( array( 'chat_enabled' => true ) );
		$this->assertSame( array( 'mock' ), Chat_Config::models() );
		$this->assertSame( array( 'max_length' => 10 ), Chat_Config::prompt_settings(), 'a setting the API would refuse is never sent' );
		$this->assertSame( 10, Chat_Config::rate_limit() );
	}

	public function test_the_model_choices_are_the_instance_list_and_a_readable_notice_when_it_cannot_be_reached() {
		ob_start();
		Chat_Settings_Fields::render_models( 'sitebeam_settings[chat_models]', array( 'nltksentiment', 'retired' ) );
		$html = (string) ob_get_clean();
		foreach ( array( 'mock', 'log', 'nltksentiment', 'textblobsentiment', 'retired' ) as $model ) {
			$this->assertStringContainsString( 'name="sitebeam_settings[chat_models][]" value="' . $model . '"', $html );
		}
		$this->assertMatchesRegularExpression( '/value="nltksentiment"\s+checked/', $html );
		$this->assertMatchesRegularExpression( '/name="sitebeam_settings\[chat_default_model\]" value="nltksentiment"\s+checked/', $html );
		$this->assertStringContainsString( 'retired</label>', $html );
		$this->assertStringContainsString( '(not listed by the instance)', $html );

		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		ob_start();
		Chat_Settings_Fields::render_models( 'sitebeam_settings[chat_models]', array( 'mock' ) );
		$html = (string) ob_get_clean();
		$this->assertStringContainsString( 'The instance’s models could not be listed: The instance cannot be reached', $html );
		$this->assertStringContainsString( 'value="mock"', $html, 'the saved models stay checked' );
		$this->assertStringNotContainsString( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), $html );
	}

	/**
	 * @param array<string, mixed> $input Posted settings.
	 * @return array<string, mixed>
	 */
	private function sanitize( array $input ) {
		return Settings_Sanitizer::sanitize( $input );
	}
}
