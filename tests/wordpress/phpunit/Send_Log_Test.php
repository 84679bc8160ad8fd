<?php
/**
 * The send log: a mail that was not delivered stays findable however many follow it, and the fallback's entry says
 * what WordPress's own mailer really did.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Mail\Send_Log;

final class Send_Log_Test extends Plugin_Test_Case {

	protected function tearDown(): void {
		Stub::clear_faults();
		parent::tearDown();
	}

	public function test_failures_and_deletions_outlive_many_later_sends() {
		Send_Log::record( array( 'ann@example.com' ), 'Refused order', Send_Log::FAILED, 'The instance refused the message.' );
		Send_Log::record( array( 'bob@example.com' ), 'Deleted reset', Send_Log::DELETED );
		Send_Log::record( array( 'cyd@example.com' ), 'Old news', Send_Log::SENT );
		for ( $i = 1; $i <= 3 * Send_Log::SIZE; $i++ ) {
			Send_Log::record( array( "reader$i@example.com" ), "Newsletter $i", Send_Log::SENT );
		}
		$entries = Send_Log::entries();
		$this->assertCount( Send_Log::SIZE + 2, $entries );
		$this->assertSame( 'Newsletter ' . 3 * Send_Log::SIZE, $entries[0]['subject'] );
		$this->assertSame( array( 'Deleted reset', 'Refused order' ), array_column( array_slice( $entries, -2 ), 'subject' ), 'the undelivered mail, oldest last' );
		$this->assertNotContains( 'Old news', array_column( $entries, 'subject' ) );
	}

	public function test_undelivered_entries_are_kept_up_to_their_own_limit() {
		for ( $i = 1; $i <= Send_Log::UNDELIVERED_KEPT + 10; $i++ ) {
			Send_Log::record( array( "f$i@example.com" ), "Failure $i", Send_Log::FAILED, 'x' );
		}
		Send_Log::record( array( 'new@example.com' ), 'Sent after them', Send_Log::SENT );
		$entries = Send_Log::entries();
		$this->assertSame( 'Sent after them', $entries[0]['subject'] );
		$this->assertCount( Send_Log::UNDELIVERED_KEPT, array_keys( array_column( $entries, 'result' ), Send_Log::FAILED, true ) );
		$this->assertSame( 'Failure 11', end( $entries )['subject'], 'the oldest failures go first' );
	}

	public function test_the_fallback_entry_says_wordpress_failed_too_when_its_mailer_fails() {
		$this->set_settings( array( 'fallback' => true ) );
		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => 'fallback-fails',
			)
		);
		// The test site has no sendmail: WordPress's own mailer fails.
		wp_mail( 'ann@example.com', 'Subject fallback-fails', 'Body' );
		$entry = Send_Log::entries()[0];
		$this->assertSame( Send_Log::FALLBACK_FAILED, $entry['result'] );
		$this->assertSame( array( 'ann@example.com' ), $entry['recipients'] );
		$this->assertStringContainsString( 'WordPress’s own mailer failed too: ', $entry['detail'] );
	}

	public function test_the_fallback_entry_says_sent_when_wordpress_sent_it() {
		$this->set_settings( array( 'fallback' => true ) );
		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => '"to":"ann@example.com"',
			)
		);
		// A sendmail that takes the mail: WordPress's own mailer succeeds.
		add_action(
			'phpmailer_init',
			static function ( $phpmailer ) {
				$phpmailer->isSendmail();
				$phpmailer->Sendmail = '/bin/true'; // phpcs:ignore WordPress.NamingConventions.ValidVariableName.UsedPropertyNotSnakeCase -- PHPMailer's property.
			}
		);
		wp_mail( 'ann@example.com', 'Subject fallback-sends', 'Body', array( 'Cc: bob@example.com' ) );
		$results = array();
		foreach ( Send_Log::entries() as $entry ) {
			$results[ $entry['recipients'][0] ] = $entry['result'];
		}
		$this->assertSame(
			array(
				'ann@example.com' => Send_Log::FALLBACK_SENT,
				'bob@example.com' => Send_Log::SENT,
			),
			$results
		);
	}
}
