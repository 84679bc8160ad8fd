<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\PreserveGlobalState;
use PHPUnit\Framework\Attributes\RunInSeparateProcess;
use Sitebeam\Admin\Settings_Fields;
use Sitebeam\Admin\Settings_Sanitizer;
use Sitebeam\Admin\Token_Store;
use Sitebeam\Settings;

final class Settings_Sanitizer_Test extends Plugin_Test_Case {

	public function test_https_url_is_accepted_without_trailing_slash() {
		$this->assertSame( 'https://api.example.test', $this->sanitize( array( 'api_url' => ' https://api.example.test/ ' ) )['api_url'] );
	}

	public function test_plain_http_only_for_this_machine() {
		$this->assertSame( 'http://localhost:8080', $this->sanitize( array( 'api_url' => 'http://localhost:8080' ) )['api_url'] );
		$this->assertSame( 'http://127.0.0.1:9', $this->sanitize( array( 'api_url' => 'http://127.0.0.1:9' ) )['api_url'] );

		$stored = get_option( Settings::OPTION )['api_url'];
		$clean  = $this->sanitize( array( 'api_url' => 'http://api.example.test' ) );
		$this->assertSame( $stored, $clean['api_url'], 'the previous URL is kept' );
		$this->assertSame( array( 'sitebeam_api_url' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
	}

	public function test_invalid_contact_recipient_keeps_the_previous_one() {
		$this->assertSame( 'desk@example.com', $this->sanitize( array( 'contact_to' => 'desk@example.com' ) )['contact_to'] );
		$stored = get_option( Settings::OPTION )['contact_to'];
		$this->assertSame( $stored, $this->sanitize( array( 'contact_to' => "a@example.com\r\nBcc: b@example.com" ) )['contact_to'] );
		$this->assertSame( array( 'sitebeam_contact_to' ), array_column( get_settings_errors( Settings::OPTION ), 'code' ) );
	}

	public function test_a_contact_recipient_at_a_special_use_domain_is_refused_naming_it() {
		$stored = get_option( Settings::OPTION )['contact_to'];
		foreach ( array( 'owner@example.test', 'owner@shop.local', 'owner@Box.LocalHost', 'a@b.invalid', 'a@x.onion', 'a@in-addr.arpa' ) as $address ) {
			$GLOBALS['wp_settings_errors'] = array();
			$this->assertSame( $stored, $this->sanitize( array( 'contact_to' => $address ) )['contact_to'], $address );
			$errors = get_settings_errors( Settings::OPTION );
			$this->assertSame( array( 'sitebeam_contact_to' ), array_column( $errors, 'code' ), $address );
			$this->assertStringContainsString( 'special-use domain the Sitebeam service refuses', $errors[0]['message'], $address );
			$this->assertStringContainsString( $address, $errors[0]['message'] );
		}
		$this->assertSame( 'owner@test.example.com', $this->sanitize( array( 'contact_to' => 'owner@test.example.com' ) )['contact_to'] );
	}

	public function test_unchecked_boxes_are_false_and_roles_are_whitelisted() {
		$clean = $this->sanitize(
			array(
				'tracker'        => '1',
				'excluded_roles' => array( 'editor', 'made-up-role', '<script>' ),
			)
		);
		$this->assertTrue( $clean['tracker'] );
		$this->assertFalse( $clean['route_mail'] );
		$this->assertFalse( $clean['respect_dnt'] );
		$this->assertSame( array( 'editor' ), $clean['excluded_roles'] );
	}

	public function test_text_is_sanitized_and_unknown_keys_dropped() {
		$clean = $this->sanitize(
			array(
				'website'         => '<b>shop</b>.example',
				'contact_success' => "Thanks!<script>x</script>\n",
				'evil'            => 'x',
			)
		);
		$this->assertSame( 'shop.example', $clean['website'] );
		$this->assertSame( 'Thanks!', $clean['contact_success'] );
		$this->assertArrayNotHasKey( 'evil', $clean );
	}

	public function test_token_goes_to_its_own_option_not_autoloaded_and_never_into_settings() {
		global $wpdb;
		Token_Store::save( array( 'api_token' => ' new-secret ' ) );
		$this->assertSame( 'new-secret', get_option( Settings::TOKEN_OPTION ) );
		$autoload = $wpdb->get_var( $wpdb->prepare( "SELECT autoload FROM {$wpdb->options} WHERE option_name = %s", Settings::TOKEN_OPTION ) );
		$this->assertContains( $autoload, array( 'no', 'off' ), 'not autoloaded (WordPress 6.6 writes "off")' );

		Token_Store::save( array( 'api_token' => '' ) );
		$this->assertSame( 'new-secret', get_option( Settings::TOKEN_OPTION ), 'an empty field keeps the token' );
		Token_Store::save( array( 'remove_token' => '1' ) );
		$this->assertSame( '', get_option( Settings::TOKEN_OPTION ) );
	}

	public function test_the_settings_sanitize_callback_never_writes_the_token() {
		update_option( Settings::TOKEN_OPTION, 'kept-secret', false );
		$clean = $this->sanitize(
			array(
				'api_token'    => 'typed-in-another-write',
				'remove_token' => '1',
			)
		);
		$this->assertArrayNotHasKey( 'api_token', $clean );
		$this->assertArrayNotHasKey( 'remove_token', $clean );
		$this->assertSame( 'kept-secret', get_option( Settings::TOKEN_OPTION ) );
	}

	public function test_the_token_field_recommends_the_wp_config_constant() {
		ob_start();
		Settings_Fields::render( array( 'key' => 'api_token' ) );
		$this->assertStringContainsString( 'Recommended: define SITEBEAM_API_TOKEN and SITEBEAM_API_URL in wp-config.php', (string) ob_get_clean() );
	}

	public function test_settings_are_autoloaded_so_front_end_pages_query_nothing() {
		global $wpdb;
		$autoload = $wpdb->get_var( $wpdb->prepare( "SELECT autoload FROM {$wpdb->options} WHERE option_name = %s", Settings::OPTION ) );
		$this->assertContains( $autoload, array( 'yes', 'on' ), 'autoloaded (WordPress 6.6 writes "on")' );
	}

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_wp_config_constants_win_and_are_kept_out_of_the_stored_settings() {
		define( 'SITEBEAM_API_URL', 'https://fixed.example.test' );
		define( 'SITEBEAM_ROUTE_MAIL', false );
		define( 'SITEBEAM_API_TOKEN', 'fixed-token' );
		$this->assertSame( 'https://fixed.example.test', Settings::get()['api_url'] );
		$this->assertFalse( Settings::get()['route_mail'] );
		$this->assertSame( 'fixed-token', Settings::token() );
		$this->assertTrue( Settings::is_fixed( 'api_token' ) );

		$stored = get_option( Settings::OPTION );
		$clean  = $this->sanitize(
			array(
				'api_url'    => 'https://other.example.test',
				'route_mail' => '1',
			)
		);
		Token_Store::save( array( 'api_token' => 'typed-token' ) );
		$this->assertSame( $stored['api_url'], $clean['api_url'] );
		$this->assertSame( $stored['route_mail'], $clean['route_mail'] );
		$this->assertNotSame( 'typed-token', get_option( Settings::TOKEN_OPTION ) );
	}

	/**
	 * @param array<string, mixed> $input Posted form.
	 */
	private function sanitize( array $input ) {
		return Settings_Sanitizer::sanitize( $input );
	}

	public function test_kept_query_parameters_are_names_and_any_star_alone_keeps_them_all() {
		$this->assertSame( 'ref,lang', $this->sanitize( array( 'keep_query' => ' ref , lang,,ref ' ) )['keep_query'] );
		$this->assertSame( 'utm_*,a[]', $this->sanitize( array( 'keep_query' => 'utm_*, a[]' ) )['keep_query'] );
		$this->assertSame( '*', $this->sanitize( array( 'keep_query' => 'ref, *' ) )['keep_query'] );
		$this->assertSame( '', $this->sanitize( array( 'keep_query' => ' ' ) )['keep_query'], 'empty: the campaign parameters' );
		$this->assertSame( array(), get_settings_errors( Settings::OPTION ) );
		$this->set_settings( array( 'keep_query' => 'ref' ) );
		foreach ( array( 'ref,a=b', 'x y', 'lang" onload="x', "ref\nlang" ) as $typed ) {
			$this->assertSame( 'ref', $this->sanitize( array( 'keep_query' => $typed ) )['keep_query'], $typed );
		}
		$errors = get_settings_errors( Settings::OPTION );
		$this->assertSame( array_fill( 0, 4, 'sitebeam_keep_query' ), array_column( $errors, 'code' ) );
		$this->assertStringContainsString( '“a=b” is not a query parameter name', $errors[0]['message'] );
	}
}
