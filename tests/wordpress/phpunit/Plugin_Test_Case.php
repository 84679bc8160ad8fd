<?php
/**
 * Base for tests against the real WordPress: every test starts from the installed settings, an empty stub inbox and
 * no remembered model list.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Chat\Model_List;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

abstract class Plugin_Test_Case extends TestCase {

	/** @var array<string, mixed> */
	private $saved_settings;

	/** @var string */
	private $saved_token;

	protected function setUp(): void {
		parent::setUp();
		$this->saved_settings = get_option( Settings::OPTION );
		$this->saved_token    = get_option( Settings::TOKEN_OPTION );
		delete_option( Send_Log::OPTION );
		self::empty_outbox();
		Model_List::forget();
		Stub::reset();
	}

	protected function tearDown(): void {
		update_option( Settings::OPTION, $this->saved_settings );
		update_option( Settings::TOKEN_OPTION, $this->saved_token, false );
		remove_all_filters( 'wp_mail_from' );
		remove_all_filters( 'wp_mail_from_name' );
		remove_all_filters( 'wp_mail_content_type' );
		remove_all_actions( 'wp_mail_failed' );
		remove_all_actions( 'phpmailer_init' );
		remove_all_filters( 'sitebeam_api_timeout' );
		parent::tearDown();
	}

	/**
	 * Empties the outbox and forgets its lock and cron event: mail one test kept is never another's.
	 */
	protected static function empty_outbox() {
		global $wpdb;
		Outbox::maybe_install();
		$wpdb->query( 'DELETE FROM ' . Outbox::table() ); // phpcs:ignore WordPress.DB
		$wpdb->delete( $wpdb->options, array( 'option_name' => Outbox_Sender::LOCK_OPTION ) ); // phpcs:ignore WordPress.DB
		wp_clear_scheduled_hook( Outbox_Sender::HOOK );
	}

	/**
	 * @param array<string, mixed> $changes Settings to change for this test.
	 */
	protected function set_settings( array $changes ) {
		update_option( Settings::OPTION, array_merge( (array) get_option( Settings::OPTION ), $changes ) );
	}
}
