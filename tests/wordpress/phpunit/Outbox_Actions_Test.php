<?php
/**
 * The owner's actions on ticked mails: what bulk Send now leaves to the background when its time runs out.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Outbox_Actions;
use Sitebeam\Admin\Outbox_Listing;
use Sitebeam\Mail\Outbox;

final class Outbox_Actions_Test extends Plugin_Test_Case {

	protected function tearDown(): void {
		self::empty_outbox();
		parent::tearDown();
	}

	public function test_bulk_send_now_past_its_time_leaves_a_refused_mail_refused_and_the_rest_due() {
		$refused = sitebeam_test_outbox_insert(
			array(
				'recipient'  => 'refused@example.com',
				'state'      => Outbox::FAILED,
				'failure'    => Outbox::FAILURE_REFUSED,
				'last_error' => 'The instance refused the field “to” of the message.',
			)
		)[0];
		$waiting = sitebeam_test_outbox_insert(
			array(
				'recipient' => 'waiting@example.com',
				'next_in'   => 600,
			)
		)[0];

		$said = Outbox_Actions::send_many( array( $refused, $waiting ), 0 );

		$this->assertStringContainsString( '1 mail not sent again: the instance refused it for good', $said );
		$this->assertStringContainsString( '1 mail not tried yet, for lack of time', $said );
		$row = Outbox_Listing::mail( $refused );
		$this->assertSame( array( Outbox::FAILED, Outbox::FAILURE_REFUSED ), array( $row['state'], $row['failure'] ), 'sent again only after the owner confirms it' );
		// The background run WP-Cron spawned may have sent it already.
		$row = Outbox_Listing::mail( $waiting );
		$this->assertTrue( null === $row || (int) $row['next_try'] <= time(), 'the waiting mail is due for the background run' );
	}
}
