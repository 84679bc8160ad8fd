<?php
/**
 * `wp sitebeam outbox list|run` as WP-CLI calls it (its two output functions stood in for: WP-CLI is not in Debian).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\PreserveGlobalState;
use PHPUnit\Framework\Attributes\RunInSeparateProcess;
use Sitebeam\Cli\Outbox_Command;
use Sitebeam\Mail\Outbox;

final class Outbox_Command_Test extends Plugin_Test_Case {

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_list_shows_the_waiting_mail_and_run_now_sends_it() {
		require_once __DIR__ . '/support/wp-cli-stand-in.php';
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		try {
			$this->assertTrue( wp_mail( 'ann@example.com', 'CLI one', 'x' ) );
			$this->assertTrue( wp_mail( 'bob@example.com', 'CLI two', 'x' ) );
			$command = new Outbox_Command();
			$command->list_( array(), array( 'format' => 'json' ) );
			$listed = json_decode( \WP_CLI::$said[0][1], true );
			$this->assertSame( array( 'ann@example.com', 'bob@example.com' ), array_column( $listed['items'], 'recipient' ) );
			$this->assertContains( 'last_error', $listed['fields'] );

			$this->set_settings( array( 'api_url' => Stub::url() ) );
			$command->run( array(), array( 'now' => true ) );
			$this->assertSame( array( 'success', 'Sent 2, given up 0; 0 waiting, 0 failed.' ), \WP_CLI::$said[1] );
			$this->assertSame( array( 'ann@example.com', 'bob@example.com' ), array_column( Stub::messages(), 'to' ) );
			$this->assertSame( array(), Outbox::rows() );
		} finally {
			self::empty_outbox();
		}
	}

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_delete_by_state_and_kind_asks_before_deleting_undelivered_mail() {
		global $wpdb;
		require_once __DIR__ . '/support/wp-cli-stand-in.php';
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		try {
			$this->assertTrue( wp_mail( 'site@example.com', 'CLI site', 'x' ) );
			Outbox::add( array( 'to' => 'owner@example.com', 'subject' => 'CLI contact' ), 1, time() + 60, 'HTTP 503', array( 'kind' => Outbox::KIND_CONTACT ) );
			$wpdb->update( Outbox::table(), array( 'state' => Outbox::FAILED ), array( 'recipient' => 'site@example.com' ) ); // phpcs:ignore WordPress.DB
			Outbox::add( array( 'to' => 'later@example.com', 'subject' => 'CLI later' ), 1, time() + 60, 'HTTP 503' );
			$command = new Outbox_Command();

			$command->delete( array(), array( 'state' => 'failed' ) );
			$this->assertSame( array( 'success', 'Deleted 1 mails.' ), \WP_CLI::$said[0] );
			$this->assertSame( array( 'owner@example.com', 'later@example.com' ), array_column( Outbox::rows(), 'recipient' ) );

			try {
				$command->delete( array(), array( 'state' => 'waiting' ) );
				$this->fail( 'deleted undelivered mail without asking' );
			} catch ( \RuntimeException $not_confirmed ) {
				$this->assertSame( 'exit 0: not confirmed', $not_confirmed->getMessage() );
			}
			$this->assertCount( 2, Outbox::rows() );

			$command->delete(
				array(),
				array(
					'state' => 'waiting',
					'kind'  => 'contact',
					'yes'   => true,
				)
			);
			$this->assertSame( array( 'later@example.com' ), array_column( Outbox::rows(), 'recipient' ) );
			$command->delete(
				array(),
				array(
					'state' => 'all',
					'yes'   => true,
				)
			);
			$this->assertSame( array(), Outbox::rows() );

			$this->expectExceptionMessage( 'exit 1: Give --state=failed, --state=waiting or --state=all.' );
			$command->delete( array(), array( 'state' => 'sent' ) );
		} finally {
			self::empty_outbox();
		}
	}
}
