<?php
/**
 * What tells the owner that mail failed, away from the outbox: the admin notice (for managers only, hidden per user
 * until another mail fails) and Site Health's Sitebeam test (critical with the count, the cause, since when and a
 * link).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Outbox_Alerts;
use Sitebeam\Mail\Outbox_Sender;

final class Outbox_Alerts_Test extends Plugin_Test_Case {

	/** @var string Text in this test's subjects, which its faults match. */
	private $marker;

	protected function setUp(): void {
		parent::setUp();
		$this->marker = 'alerts-' . wp_generate_password( 10, false );
		wp_set_current_user( 1 );
		delete_user_meta( 1, Outbox_Alerts::DISMISSED_META );
	}

	protected function tearDown(): void {
		Stub::clear_faults();
		self::empty_outbox();
		delete_user_meta( 1, Outbox_Alerts::DISMISSED_META );
		wp_set_current_user( 0 );
		parent::tearDown();
	}

	private function notices() {
		ob_start();
		Outbox_Alerts::action_admin_notices();
		return (string) ob_get_clean();
	}

	/**
	 * A mail the instance kept from the site (503), then refused for good on its retry (422), as an outage that ends
	 * with a refusal does it.
	 */
	private function give_up_one_mail() {
		Stub::fail_marked( $this->marker, 503, array( 'times' => 1 ) );
		$this->assertTrue( wp_mail( 'ann@example.com', "Order {$this->marker}", 'Body' ) );
		Stub::fail_marked( $this->marker, 422 );
		\Sitebeam\Mail\Outbox::make_waiting_due();
		$this->assertSame( 1, Outbox_Sender::run()['failed'] );
	}

	public function test_all_well_is_good_and_raises_no_notice() {
		// A mail that goes through: the instance takes mail (whatever an earlier test's outage left in the state).
		$this->assertTrue( wp_mail( 'ann@example.com', "Fine {$this->marker}", 'Body' ) );
		$result = Outbox_Alerts::site_health_test();
		$this->assertSame( 'good', $result['status'] );
		$this->assertSame( '', $this->notices() );
	}

	public function test_a_mail_refused_on_its_retry_turns_site_health_critical_with_count_cause_since_and_link() {
		$this->give_up_one_mail();
		$result = Outbox_Alerts::site_health_test();
		$this->assertSame( 'critical', $result['status'] );
		$this->assertSame( '1 site mail failed and was not delivered', $result['label'] );
		$since = wp_date( get_option( 'time_format' ), \Sitebeam\Admin\Outbox_Listing::failures()['since'] );
		$this->assertStringContainsString( '1 mail failed and was not delivered (since ' . $since . ').', $result['description'] );
		$this->assertStringContainsString( 'The last cause: The instance refused', $result['description'] );
		$this->assertStringContainsString( 'tools.php?page=sitebeam-outbox&#038;view=failed', $result['actions'] );
	}

	public function test_the_notice_is_for_managers_and_hidden_until_another_mail_fails() {
		$this->give_up_one_mail();
		$notice = $this->notices();
		$this->assertStringContainsString( 'sitebeam-failure-notice', $notice );
		$this->assertStringContainsString( '1 mail failed and was not delivered', $notice );
		$this->assertStringContainsString( 'action=sitebeam_outbox_dismiss', $notice );

		$subscriber = wp_insert_user(
			array(
				'user_login' => 'alerts-' . wp_generate_password( 6, false ),
				'user_pass'  => wp_generate_password(),
				'role'       => 'subscriber',
			)
		);
		wp_set_current_user( $subscriber );
		$this->assertSame( '', $this->notices(), 'a subscriber is told nothing' );
		wp_set_current_user( 1 );
		require_once ABSPATH . 'wp-admin/includes/user.php';
		wp_delete_user( $subscriber );

		update_user_meta( 1, Outbox_Alerts::DISMISSED_META, \Sitebeam\Admin\Outbox_Listing::failures()['mark'] );
		$this->assertStringNotContainsString( 'sitebeam-failure-notice', $this->notices(), 'hidden for this failure' );
		$this->give_up_one_mail();
		$this->assertStringContainsString( '2 mails failed and were not delivered', $this->notices(), 'shown again for another' );
	}
}
