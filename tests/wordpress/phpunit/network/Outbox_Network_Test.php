<?php
/**
 * The outbox on a multisite network: each site keeps its own table, deleting a site drops it, and the instance's
 * return noticed on one site makes every site's waiting mail due.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Contract;
use Sitebeam\Mail\Delivery_State;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;

final class Outbox_Network_Test extends TestCase {

	protected function setUp(): void {
		parent::setUp();
		$this->assertTrue( is_multisite(), 'runs against the multisite network of tests/wordpress/env.sh' );
		require_once ABSPATH . 'wp-admin/includes/ms.php';
	}

	protected function tearDown(): void {
		delete_site_option( Delivery_State::OPTION );
		parent::tearDown();
	}

	public function test_deleting_a_subsite_drops_its_outbox_table_with_the_mail_in_it() {
		global $wpdb;
		$site = wpmu_create_blog( get_network()->domain, '/doomed-' . strtolower( wp_generate_password( 6, false ) ) . '/', 'Doomed', 1 );
		$this->assertIsInt( $site );
		switch_to_blog( $site );
		try {
			$this->assertTrue( Outbox::maybe_install() );
			$this->assertIsInt( Outbox::add( $this->message(), 1, time() + 60, 'HTTP 503' ) );
			$table = Outbox::table();
		} finally {
			restore_current_blog();
		}
		$this->assertSame( $table, $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', $table ) ) );

		wpmu_delete_blog( $site, true );

		$this->assertNull( $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', $table ) ), 'the table went with the site' );
	}

	public function test_the_instances_return_noticed_on_one_site_makes_the_mail_waiting_on_another_due() {
		global $wpdb;
		$second = (int) get_blog_id_from_url( get_network()->domain, '/second/' );
		switch_to_blog( $second );
		try {
			$this->assertIsInt( Outbox::add( $this->message(), 8, time() + Contract::OUTBOX_MAX_RETRY_S, 'HTTP 503' ) );
			update_option( Outbox_Sender::DRAINED_OPTION, time() - 60, false );
		} finally {
			restore_current_blog();
		}
		// The main site's mail went through after an outage.
		update_site_option(
			Delivery_State::OPTION,
			array(
				'failing_since' => time() - 600,
				'breaker_until' => 0,
			)
		);
		$this->assertTrue( Delivery_State::record_success() );

		switch_to_blog( $second );
		try {
			Stub::reset();
			$done = Outbox_Sender::run();
			$this->assertSame( 1, $done['sent'], 'its next run sends it, though its backoff had an hour to go' );
			$this->assertSame( array(), Outbox::rows() );
		} finally {
			$wpdb->query( 'DELETE FROM ' . Outbox::table() ); // phpcs:ignore WordPress.DB
			restore_current_blog();
		}
	}

	/**
	 * One API message.
	 *
	 * @return array<string, string>
	 */
	private function message() {
		return array(
			Contract::EMAIL_FIELD_TO      => 'ann@example.com',
			Contract::EMAIL_FIELD_SUBJECT => 'Network ' . wp_generate_password( 8, false ),
			Contract::EMAIL_FIELD_CONTENT => 'x',
		);
	}
}
