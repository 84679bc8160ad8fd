<?php
/**
 * Base for tests against the real WordPress: every test starts from the installed settings, an empty stub inbox, no
 * remembered model list and no settings error of another test.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Chat\Model_List;
use Sitebeam\Contact\Form_Nonce;
use Sitebeam\Contact\Ticket;
use Sitebeam\Mail\Delivery_State;
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
		$GLOBALS['wp_settings_errors'] = array();
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
	 * Empties the outbox and forgets its lock, its cron events and what the last sends showed (the circuit breaker
	 * among them): mail one test kept, or an outage it made, is never another's.
	 */
	protected static function empty_outbox() {
		global $wpdb;
		Outbox::maybe_install();
		$wpdb->query( 'DELETE FROM ' . Outbox::table() ); // phpcs:ignore WordPress.DB
		$wpdb->delete( $wpdb->options, array( 'option_name' => Outbox_Sender::LOCK_OPTION ) ); // phpcs:ignore WordPress.DB
		foreach ( array( Outbox_Sender::HOOK, Outbox_Sender::WATCH_HOOK, Outbox_Sender::PURGE_HOOK ) as $hook ) {
			wp_clear_scheduled_hook( $hook );
		}
		delete_option( Delivery_State::OPTION );
		delete_option( Outbox_Sender::DRAINED_OPTION );
		// WP-Cron's lock: a drain one test spawned must not keep another's from spawning.
		delete_transient( 'doing_cron' );
	}

	/**
	 * The plugin waits this long for the instance's answer in this test (filter sitebeam_api_timeout).
	 *
	 * @param int $seconds Seconds.
	 */
	protected static function api_timeout( $seconds ) {
		add_filter(
			'sitebeam_api_timeout',
			static function () use ( $seconds ) {
				return $seconds;
			}
		);
	}

	/**
	 * The fields of a valid contact post: name, email, subject and message, the empty honeypot, a fill-time ticket
	 * old enough, and the nonce.
	 *
	 * @param array<string, string|null> $changes Fields over the valid post; null removes one.
	 * @return array<string, string>
	 */
	protected static function contact_post( array $changes = array() ) {
		$fields = array_merge(
			array(
				'name'            => 'Visitor',
				'email'           => 'visitor@example.com',
				'subject'         => 'Question',
				'message'         => 'Hello',
				'homepage'        => '',
				'ticket'          => Ticket::issue( (int) floor( microtime( true ) * 1000 ) - 10000 ),
				Form_Nonce::FIELD => Form_Nonce::create(),
			),
			$changes
		);
		return array_filter(
			$fields,
			static function ( $value ) {
				return null !== $value;
			}
		);
	}

	/**
	 * @param array<string, mixed> $changes Settings to change for this test.
	 */
	protected function set_settings( array $changes ) {
		update_option( Settings::OPTION, array_merge( (array) get_option( Settings::OPTION ), $changes ) );
	}

	/**
	 * The chat on, with these models allowed.
	 *
	 * @param string[]             $models The allowed models, the default first.
	 * @param array<string, mixed> $more   More settings to change for this test.
	 */
	protected function enable_chat( array $models, array $more = array() ) {
		$this->set_settings(
			array(
				'chat_enabled' => true,
				'chat_models'  => $models,
			) + $more
		);
	}
}
