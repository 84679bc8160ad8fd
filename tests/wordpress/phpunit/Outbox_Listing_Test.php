<?php
/**
 * The outbox screens' queries against the real table: counts per view, a page searched, sorted and paged, the failed
 * mail summed up. Rows are put straight into the table (tests/wordpress/site/sitebeam-test-outbox-rows.php).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Outbox_Listing;

final class Outbox_Listing_Test extends Plugin_Test_Case {

	protected function tearDown(): void {
		self::empty_outbox();
		parent::tearDown();
	}

	public function test_counts_per_view_and_contact_messages() {
		sitebeam_test_outbox_insert( array(), 3 );
		sitebeam_test_outbox_insert( array( 'state' => 'sending' ) );
		sitebeam_test_outbox_insert(
			array(
				'state'   => 'failed',
				'failure' => 'refused',
				'kind'    => 'contact',
			),
			2
		);
		$this->assertSame(
			array(
				'all'     => 6,
				'waiting' => 4,
				'failed'  => 2,
				'contact' => 2,
			),
			Outbox_Listing::counts()
		);
	}

	public function test_a_page_of_a_view_with_its_total() {
		sitebeam_test_outbox_insert( array( 'subject' => 'Waiting {n}' ), 45 );
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Failed {n}',
				'state'   => 'failed',
			),
			5
		);
		$third = Outbox_Listing::page(
			array(
				'view'     => 'waiting',
				'page'     => 3,
				'per_page' => 20,
				'orderby'  => 'queued',
				'order'    => 'asc',
			)
		);
		$this->assertSame( 45, $third['total'] );
		$this->assertSame( array( 'Waiting 41', 'Waiting 42', 'Waiting 43', 'Waiting 44', 'Waiting 45' ), array_column( $third['rows'], 'subject' ) );
		$failed = Outbox_Listing::page( array( 'view' => 'failed' ) );
		$this->assertSame( 5, $failed['total'] );
		$this->assertSame( array( 'Failed 5', 'Failed 4', 'Failed 3', 'Failed 2', 'Failed 1' ), array_column( $failed['rows'], 'subject' ), 'newest first by default' );
		$this->assertArrayNotHasKey( 'message', $failed['rows'][0], 'a list row never carries the message' );
	}

	public function test_search_in_recipient_or_subject_takes_wildcards_literally() {
		sitebeam_test_outbox_insert(
			array(
				'recipient' => 'ann@example.com',
				'subject'   => 'Invoice 100% paid',
			)
		);
		sitebeam_test_outbox_insert(
			array(
				'recipient' => 'bob@example.org',
				'subject'   => 'Invoice 1000 due',
			)
		);
		sitebeam_test_outbox_insert(
			array(
				'recipient' => 'cyd_x@example.net',
				'subject'   => 'Welcome',
			)
		);
		$found = static function ( $search ) {
			return array_column( Outbox_Listing::page( array( 'search' => $search ) )['rows'], 'recipient' );
		};
		$this->assertSame( array( 'bob@example.org', 'ann@example.com' ), $found( 'invoice' ) );
		$this->assertSame( array( 'ann@example.com' ), $found( '100%' ), '% is a character, not a wildcard' );
		$this->assertSame( array( 'cyd_x@example.net' ), $found( '_x@' ), '_ is a character, not a wildcard' );
		$this->assertSame( array( 'bob@example.org' ), $found( 'EXAMPLE.ORG' ) );
		$this->assertSame( array(), $found( "x' OR '1'='1" ) );
		$this->assertSame( 1, Outbox_Listing::page( array( 'search' => 'welcome' ) )['total'] );
	}

	public function test_sort_by_next_try_puts_failed_mail_last_both_ways() {
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Later',
				'next_in' => 600,
			)
		);
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Soon',
				'next_in' => 60,
			)
		);
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Overdue',
				'next_in' => -60,
			)
		);
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Given up',
				'state'   => 'failed',
				'next_in' => -9000,
			)
		);
		$sorted = static function ( $orderby, $order ) {
			return array_column(
				Outbox_Listing::page(
					array(
						'orderby' => $orderby,
						'order'   => $order,
					)
				)['rows'],
				'subject'
			);
		};
		$this->assertSame( array( 'Overdue', 'Soon', 'Later', 'Given up' ), $sorted( 'next_try', 'asc' ) );
		$this->assertSame( array( 'Later', 'Soon', 'Overdue', 'Given up' ), $sorted( 'next_try', 'desc' ) );
		$this->assertSame( array( 'Later', 'Soon', 'Overdue', 'Given up' ), $sorted( 'queued', 'asc' ) );
		$this->assertSame( array( 'Given up', 'Overdue', 'Soon', 'Later' ), $sorted( 'queued', 'desc' ) );
		$this->assertSame( $sorted( 'queued', 'desc' ), $sorted( 'id; DROP TABLE x', 'sideways' ), 'an unknown sort is the default one' );
	}

	public function test_failures_sum_up_count_since_and_newest_cause_and_the_mark_grows_with_a_new_failure() {
		$this->assertNull( Outbox_Listing::failures() );
		sitebeam_test_outbox_insert(
			array(
				'state'        => 'failed',
				'failure'      => 'expired',
				'age'          => 7200,
				'last_try_ago' => 3600,
				'last_error'   => 'Given up after 72 hours: the instance cannot be reached.',
			)
		);
		sitebeam_test_outbox_insert(
			array(
				'state'        => 'failed',
				'failure'      => 'refused',
				'age'          => 600,
				'last_try_ago' => 60,
				'last_error'   => 'The instance refused the field “to” of the message: value is not a valid email address.',
			)
		);
		sitebeam_test_outbox_insert( array( 'last_error' => 'The instance failed to answer (HTTP 503): try again in a moment.' ) );
		$failures = Outbox_Listing::failures();
		$this->assertSame( 2, $failures['count'] );
		$this->assertEqualsWithDelta( time() - 3600, $failures['since'], 5 );
		$this->assertStringContainsString( 'refused the field “to”', $failures['cause'] );

		sitebeam_test_outbox_insert(
			array(
				'state'        => 'failed',
				'last_try_ago' => 1,
			)
		);
		$this->assertNotSame( $failures['mark'], Outbox_Listing::failures()['mark'] );
	}
}
