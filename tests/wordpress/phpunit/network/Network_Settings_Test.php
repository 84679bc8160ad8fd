<?php
/**
 * On multisite the settings are the network's: a token fixed in wp-config.php applies to every site, so no
 * subsite administrator may choose where it goes, and uninstalling cleans every site.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\PreserveGlobalState;
use PHPUnit\Framework\Attributes\RunInSeparateProcess;
use PHPUnit\Framework\TestCase;
use Sitebeam\Admin\Connection_Actions;
use Sitebeam\Admin\Settings_Page;
use Sitebeam\Admin\Token_Store;
use Sitebeam\Chat\Chat_Capability;
use Sitebeam\Chat\Daily_Budget;
use Sitebeam\Chat\Model_List;
use Sitebeam\Endpoint\Rate_Limiter;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

final class Network_Settings_Test extends TestCase {

	/** @var int */
	private $second_site;

	protected function setUp(): void {
		parent::setUp();
		$this->assertTrue( is_multisite(), 'runs against the multisite network of tests/wordpress/env.sh' );
		$this->second_site = (int) get_blog_id_from_url( get_network()->domain, '/second/' );
		$this->assertGreaterThan( 1, $this->second_site );
	}

	protected function tearDown(): void {
		remove_all_filters( 'wp_die_handler' );
		remove_all_filters( 'wp_redirect' );
		wp_set_current_user( 0 );
		parent::tearDown();
	}

	public function test_every_site_uses_the_network_settings_and_ignores_a_site_option() {
		$network_url = get_site_option( Settings::OPTION )['api_url'];
		$this->assertSame( getenv( 'SITEBEAM_STUB_URL' ), $network_url );
		switch_to_blog( $this->second_site );
		try {
			$this->assertSame( $network_url, Settings::get()['api_url'] );
			update_option( Settings::OPTION, array( 'api_url' => 'https://elsewhere.example' ) );
			$this->assertSame( $network_url, Settings::get()['api_url'] );
		} finally {
			delete_option( Settings::OPTION );
			restore_current_blog();
		}
	}

	public function test_the_chat_is_the_networks_only_super_admins_use_it_unless_the_network_extends_it_to_site_administrators() {
		$settings = get_site_option( Settings::OPTION );
		switch_to_blog( $this->second_site );
		try {
			delete_option( Chat_Capability::VERSION_OPTION );
			get_role( 'administrator' )->remove_cap( Chat_Capability::CAPABILITY );
			Chat_Capability::maybe_grant();
			$this->assertTrue( get_role( 'administrator' )->has_cap( Chat_Capability::CAPABILITY ), 'the role keeps its grant' );
			$this->assertFalse( user_can( $this->subsite_administrator(), Chat_Capability::CAPABILITY ), 'a site administrator' );
			$this->assertTrue( user_can( $this->super_admin(), Chat_Capability::CAPABILITY ), 'a super admin' );

			update_site_option( Settings::OPTION, array_merge( (array) $settings, array( 'chat_site_admins' => true ) ) );
			$this->assertTrue( user_can( $this->subsite_administrator(), Chat_Capability::CAPABILITY ), 'extended by the network' );
			$this->assertFalse( user_can( $this->subsite_editor(), Chat_Capability::CAPABILITY ), 'an editor never' );
		} finally {
			update_site_option( Settings::OPTION, $settings );
			restore_current_blog();
		}
	}

	public function test_a_subsite_administrator_cannot_use_the_chat_console_route() {
		switch_to_blog( $this->second_site );
		try {
			wp_set_current_user( $this->subsite_administrator() );
			$response = rest_get_server()->dispatch( new \WP_REST_Request( 'GET', '/sitebeam/v1/console/models' ) );
			$this->assertContains( $response->get_status(), array( 401, 403 ) );
		} finally {
			restore_current_blog();
		}
	}

	public function test_the_daily_chat_limit_counts_every_site_of_the_network_together() {
		global $wpdb;
		$main = $wpdb->get_blog_prefix( get_main_site_id() ) . 'options';
		$day  = gmmktime( 12, 0, 0, 3, 4, 2002 );
		$wpdb->query( "DELETE FROM {$main} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB -- the daily counter has no API to reset it.
		try {
			switch_to_blog( $this->second_site );
			$this->assertSame( 0, Daily_Budget::take( 2, $day ) );
			$this->assertSame( 0, Daily_Budget::take( 2, $day ) );
			$this->assertSame( '0', $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ), 'nothing counted in the second site\'s table' ); // phpcs:ignore WordPress.DB
			restore_current_blog();
			$this->assertGreaterThan( 0, Daily_Budget::take( 2, $day ), 'the main site finds the day spent' );
			$this->assertSame( 2, Daily_Budget::count( $day ) );
		} finally {
			if ( ms_is_switched() ) {
				restore_current_blog();
			}
			$wpdb->query( "DELETE FROM {$main} WHERE option_name LIKE 'sitebeam\\_chat\\_day\\_%'" ); // phpcs:ignore WordPress.DB
		}
	}

	public function test_a_subsite_administrator_gets_no_settings_page_and_cannot_test_the_connection() {
		switch_to_blog( $this->second_site );
		try {
			wp_set_current_user( $this->subsite_administrator() );
			$this->assertTrue( current_user_can( 'manage_options' ) );

			Settings_Page::action_admin_menu();
			$this->assertArrayNotHasKey( get_plugin_page_hookname( Settings_Page::SLUG, 'options-general.php' ), $GLOBALS['_registered_pages'] ?? array() );

			$_REQUEST['_wpnonce'] = wp_create_nonce( Connection_Actions::TEST_CONNECTION );
			add_filter(
				'wp_die_handler',
				static function () {
					return static function ( $message, $title, $args ) {
						throw new \RuntimeException( 'wp_die ' . ( is_array( $args ) ? $args['response'] ?? '' : $args ) );
					};
				}
			);
			add_filter(
				'wp_redirect',
				static function () {
					throw new \RuntimeException( 'the connection was tested' );
				}
			);
			$this->expectExceptionMessage( 'wp_die 403' );
			Connection_Actions::action_test_connection();
		} finally {
			unset( $_REQUEST['_wpnonce'] );
			restore_current_blog();
		}
	}

	public function test_a_subsite_save_of_the_settings_never_overwrites_the_networks_token() {
		$token = get_site_option( Settings::TOKEN_OPTION );
		Settings_Page::action_admin_init();
		switch_to_blog( $this->second_site );
		try {
			wp_set_current_user( $this->subsite_administrator() );
			// What options.php does with the form a subsite administrator posts to their own site.
			update_option(
				Settings::OPTION,
				array(
					'api_token'    => 'a-subsite-token',
					'remove_token' => '1',
				)
			);
			$this->assertSame( $token, get_site_option( Settings::TOKEN_OPTION ) );
			$this->assertSame( 'manage_network_options', Token_Store::filter_option_page_capability(), 'options.php asks for the network\'s capability' );
			$this->assertFalse( current_user_can( Token_Store::filter_option_page_capability() ) );
		} finally {
			delete_option( Settings::OPTION );
			restore_current_blog();
			update_site_option( Settings::TOKEN_OPTION, $token );
		}
	}

	public function test_the_model_list_is_remembered_for_the_whole_network() {
		Model_List::forget();
		$this->assertContains( 'mock', Model_List::get() );
		$this->assertSame( Model_List::get(), get_site_transient( Model_List::TRANSIENT )['models'] );
		$this->assertFalse( get_transient( Model_List::TRANSIENT ) );
		$asked = 0;
		$count = static function ( $preempt ) use ( &$asked ) {
			++$asked;
			return $preempt;
		};
		add_filter( 'pre_http_request', $count );
		switch_to_blog( $this->second_site );
		try {
			$this->assertContains( 'mock', Model_List::get() );
			$this->assertSame( 0, $asked, 'a subsite uses the network\'s list' );
		} finally {
			restore_current_blog();
			remove_filter( 'pre_http_request', $count );
		}
	}

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_uninstall_cleans_the_network_and_every_site() {
		global $wpdb;
		$settings = get_site_option( Settings::OPTION );
		$token    = get_site_option( Settings::TOKEN_OPTION );
		$tables   = array();
		foreach ( array( 1, $this->second_site ) as $site ) {
			switch_to_blog( $site );
			Send_Log::record( array( 'a@example.com' ), 'Logged', Send_Log::SENT );
			Rate_Limiter::hit( 'contact', 5, 60, '203.0.113.7' );
			Chat_Capability::grant();
			Outbox::maybe_install();
			$tables[ $site ] = Outbox::table();
			restore_current_blog();
		}
		$this->assertIsArray( Model_List::get() );
		$this->assertNotSame( $tables[1], $tables[ $this->second_site ], 'one outbox table per site' );
		try {
			define( 'WP_UNINSTALL_PLUGIN', 'sitebeam/sitebeam.php' );
			include WP_PLUGIN_DIR . '/sitebeam/uninstall.php';
			wp_cache_flush();
			$this->assertFalse( get_site_option( Settings::OPTION ) );
			$this->assertFalse( get_site_option( Settings::TOKEN_OPTION ) );
			$this->assertFalse( get_site_transient( Model_List::TRANSIENT ) );
			foreach ( array( 1, $this->second_site ) as $site ) {
				switch_to_blog( $site );
				$this->assertFalse( get_option( Send_Log::OPTION ), "site $site: send log" );
				$this->assertSame( '0', $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE 'sitebeam\\_rl\\_%'" ), "site $site: rate counter" ); // phpcs:ignore WordPress.DB
				$this->assertFalse( get_role( 'administrator' )->has_cap( Chat_Capability::CAPABILITY ), "site $site: chat capability" );
				$this->assertFalse( get_option( Chat_Capability::VERSION_OPTION ), "site $site: capability version" );
				$this->assertNull( $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', $tables[ $site ] ) ), "site $site: outbox table" );
				restore_current_blog();
			}
		} finally {
			foreach ( array( 1, $this->second_site ) as $site ) {
				switch_to_blog( $site );
				Chat_Capability::grant();
				restore_current_blog();
			}
			update_site_option( Settings::OPTION, $settings );
			update_site_option( Settings::TOKEN_OPTION, $token );
		}
	}

	private function super_admin() {
		$admins = get_super_admins();
		return get_user_by( 'login', $admins[0] )->ID;
	}

	private function subsite_editor() {
		return $this->subsite_user( 'subsite-editor', 'editor' );
	}

	private function subsite_administrator() {
		return $this->subsite_user( 'subsite-admin', 'administrator' );
	}

	/**
	 * A user of the second site with the role, made on first use.
	 *
	 * @param string $login The user's login.
	 * @param string $role  The user's role on the second site.
	 * @return int
	 */
	private function subsite_user( $login, $role ) {
		$user = get_user_by( 'login', $login );
		$id   = $user ? $user->ID : wp_insert_user(
			array(
				'user_login' => $login,
				'user_pass'  => wp_generate_password(),
				'user_email' => $login . '@example.com',
			)
		);
		add_user_to_blog( $this->second_site, $id, $role );
		return $id;
	}
}
