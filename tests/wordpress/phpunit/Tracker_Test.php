<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Settings;
use Sitebeam\Tracker\Script_Loader;

final class Tracker_Test extends Plugin_Test_Case {

	protected function setUp(): void {
		parent::setUp();
		wp_dequeue_script( Script_Loader::HANDLE );
		wp_set_current_user( 0 );
	}

	protected function tearDown(): void {
		wp_dequeue_script( Script_Loader::HANDLE );
		wp_set_current_user( 0 );
		parent::tearDown();
	}

	public function test_tag_is_deferred_and_carries_the_settings_escaped() {
		$loader = new Script_Loader( array_merge( Settings::get(), array( 'website' => 'shop "one".example' ) ) );
		$tag    = $loader->filter_script_loader_tag( "<script src='x.js' id='sitebeam-tracker-js'></script>\n", Script_Loader::HANDLE );
		$this->assertStringContainsString( ' defer', $tag );
		$this->assertStringContainsString( 'data-api="' . getenv( 'SITEBEAM_STUB_URL' ) . '"', $tag );
		$this->assertStringContainsString( 'data-website="shop &quot;one&quot;.example"', $tag );
		$this->assertStringNotContainsString( 'data-respect-dnt', $tag );
		$this->assertSame( '<script>', $loader->filter_script_loader_tag( '<script>', 'other-handle' ) );
	}

	public function test_ignoring_do_not_track_is_said_to_the_snippet() {
		$loader = new Script_Loader( array_merge( Settings::get(), array( 'respect_dnt' => false ) ) );
		$this->assertStringContainsString( 'data-respect-dnt="false"', $loader->filter_script_loader_tag( '<script src="x"></script>', Script_Loader::HANDLE ) );
	}

	public function test_visitors_are_tracked_and_excluded_roles_are_not() {
		( new Script_Loader( Settings::get() ) )->action_wp_enqueue_scripts();
		$this->assertTrue( wp_script_is( Script_Loader::HANDLE, 'enqueued' ) );
		wp_dequeue_script( Script_Loader::HANDLE );

		wp_set_current_user( (int) get_user_by( 'login', getenv( 'SITEBEAM_WP_ADMIN_USER' ) )->ID );
		( new Script_Loader( Settings::get() ) )->action_wp_enqueue_scripts();
		$this->assertFalse( wp_script_is( Script_Loader::HANDLE, 'enqueued' ) );

		wp_set_current_user( (int) get_user_by( 'login', 'subscriber' )->ID );
		( new Script_Loader( Settings::get() ) )->action_wp_enqueue_scripts();
		$this->assertTrue( wp_script_is( Script_Loader::HANDLE, 'enqueued' ) );
	}

	public function test_tracker_off_enqueues_nothing() {
		( new Script_Loader( array_merge( Settings::get(), array( 'tracker' => false ) ) ) )->action_wp_enqueue_scripts();
		$this->assertFalse( wp_script_is( Script_Loader::HANDLE, 'enqueued' ) );
	}

	public function test_noscript_pixel_points_at_the_image_tracker() {
		$loader = new Script_Loader( array_merge( Settings::get(), array( 'website' => 'my site/é' ) ) );
		ob_start();
		$loader->action_wp_footer();
		$html = ob_get_clean();
		$this->assertStringContainsString( '<noscript><img src="' . getenv( 'SITEBEAM_STUB_URL' ) . '/v1/tracker/img/my%20site%2F%C3%A9"', $html );
		$this->assertStringContainsString( 'crossorigin="anonymous"', $html, 'no cookies of the instance’s site, as the tag’s pixel' );
	}

	public function test_the_tag_keeps_the_campaign_parameters_unless_the_owner_keeps_others() {
		$default = ( new Script_Loader( Settings::get() ) )->filter_script_loader_tag( '<script src="x"></script>', Script_Loader::HANDLE );
		$this->assertStringNotContainsString( 'data-keep-query', $default, 'the tag’s own default: the utm_* parameters' );
		$loader = new Script_Loader( array_merge( Settings::get(), array( 'keep_query' => 'ref,lang' ) ) );
		$this->assertStringContainsString( ' data-keep-query="ref,lang"', $loader->filter_script_loader_tag( '<script src="x"></script>', Script_Loader::HANDLE ) );
	}

	public function test_the_noscript_pixel_reports_the_origin_only_unless_every_parameter_is_kept() {
		$policies = array();
		foreach ( array( '', 'ref,lang', 'utm_*', '*' ) as $kept ) {
			ob_start();
			( new Script_Loader( array_merge( Settings::get(), array( 'keep_query' => $kept ) ) ) )->action_wp_footer();
			preg_match( '/referrerpolicy="([^"]*)"/', (string) ob_get_clean(), $found );
			$policies[ $kept ] = $found[1] ?? null;
		}
		$this->assertSame(
			array(
				''         => 'origin',
				'ref,lang' => 'origin',
				'utm_*'    => 'origin',
				'*'        => 'no-referrer-when-downgrade',
			),
			$policies
		);
	}

	public function test_the_plugin_declares_itself_to_the_wp_consent_api() {
		$this->assertTrue( apply_filters( 'wp_consent_api_registered_sitebeam/sitebeam.php', false ) );
	}

	public function test_waiting_for_consent_is_said_to_the_snippet_and_leaves_out_the_pixel() {
		$loader = new Script_Loader( array_merge( Settings::get(), array( 'wait_for_consent' => true ) ) );
		$this->assertStringContainsString( 'data-consent=""', $loader->filter_script_loader_tag( '<script src="x"></script>', Script_Loader::HANDLE ) );
		$loader->action_wp_enqueue_scripts();
		$this->assertFalse( has_action( 'wp_footer', array( $loader, 'action_wp_footer' ) ) );
		$this->assertStringContainsString( 'consent:function(c){this.c=c}', implode( '', wp_scripts()->get_data( Script_Loader::HANDLE, 'before' ) ) );
	}

	public function test_the_front_end_path_runs_no_database_query() {
		global $wpdb;
		wp_cache_delete( 'alloptions', 'options' );
		wp_load_alloptions();
		$before = $wpdb->num_queries;
		$loader = new Script_Loader( Settings::get() );
		$loader->action_wp_enqueue_scripts();
		$loader->filter_script_loader_tag( '<script src="x"></script>', Script_Loader::HANDLE );
		ob_start();
		$loader->action_wp_footer();
		ob_end_clean();
		$this->assertSame( $before, $wpdb->num_queries );
	}
}
