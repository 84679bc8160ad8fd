<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\PreserveGlobalState;
use PHPUnit\Framework\Attributes\RunInSeparateProcess;
use PHPUnit\Framework\TestCase;
use Sitebeam\Chat\Chat_Capability;
use Sitebeam\Chat\Model_List;
use Sitebeam\Endpoint\Rate_Limiter;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

final class Uninstall_Test extends TestCase {

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_uninstall_removes_options_log_counters_model_list_and_the_chat_capability() {
		$settings = get_option( Settings::OPTION );
		$token    = get_option( Settings::TOKEN_OPTION );
		Send_Log::record( array( 'a@example.com' ), 'Logged', Send_Log::SENT );
		Rate_Limiter::hit( 'contact', 5, 60, '203.0.113.7' );
		$this->assertGreaterThanOrEqual( 1, self::rate_counters() );
		$this->assertIsArray( Model_List::get() );
		$this->assertIsArray( get_transient( Model_List::TRANSIENT ) );
		get_role( 'editor' )->add_cap( Chat_Capability::CAPABILITY );
		global $wpdb;
		Outbox::maybe_install();
		$this->assertSame( Outbox::table(), $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', Outbox::table() ) ) );
		$this->assertTrue( get_role( 'administrator' )->has_cap( Chat_Capability::CAPABILITY ) );
		try {
			define( 'WP_UNINSTALL_PLUGIN', 'sitebeam/sitebeam.php' );
			include WP_PLUGIN_DIR . '/sitebeam/uninstall.php';
			wp_cache_flush();
			$this->assertNull( $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', Outbox::table() ) ), 'the outbox table' );
			foreach ( array( Settings::OPTION, Settings::TOKEN_OPTION, Send_Log::OPTION, Chat_Capability::VERSION_OPTION, Outbox::VERSION_OPTION ) as $option ) {
				$this->assertFalse( get_option( $option ), $option );
			}
			$this->assertSame( 0, self::rate_counters() );
			$this->assertFalse( get_transient( Model_List::TRANSIENT ) );
			wp_roles()->for_site();
			foreach ( array( 'administrator', 'editor' ) as $role ) {
				$this->assertFalse( get_role( $role )->has_cap( Chat_Capability::CAPABILITY ), $role );
			}
		} finally {
			get_role( 'editor' )->remove_cap( Chat_Capability::CAPABILITY );
			Chat_Capability::grant();
			Outbox::maybe_install();
			Settings::create_options();
			update_option( Settings::OPTION, $settings );
			update_option( Settings::TOKEN_OPTION, $token, false );
		}
	}

	/** The rate-limit counters stored. */
	private static function rate_counters() {
		global $wpdb;
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_rl\\_%'" ); // phpcs:ignore WordPress.DB -- the counters have no API.
	}
}
