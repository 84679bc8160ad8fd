<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

final class Uninstall_Test extends TestCase {

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	public function test_uninstall_removes_options_log_and_counters() {
		$settings = get_option( Settings::OPTION );
		$token    = get_option( Settings::TOKEN_OPTION );
		Send_Log::record( array( 'a@example.test' ), 'Logged', Send_Log::SENT );
		set_transient( 'sitebeam_rl_phpunit', array( 'count' => 1 ), 60 );
		try {
			define( 'WP_UNINSTALL_PLUGIN', 'sitebeam/sitebeam.php' );
			include WP_PLUGIN_DIR . '/sitebeam/uninstall.php';
			wp_cache_flush();
			foreach ( array( Settings::OPTION, Settings::TOKEN_OPTION, Send_Log::OPTION ) as $option ) {
				$this->assertFalse( get_option( $option ), $option );
			}
			$this->assertFalse( get_transient( 'sitebeam_rl_phpunit' ) );
		} finally {
			Settings::create_options();
			update_option( Settings::OPTION, $settings );
			update_option( Settings::TOKEN_OPTION, $token, false );
		}
	}
}
