<?php
/**
 * The outbox's list table as WordPress draws it: every cell escaped, views with counts, "1–20 of 25", the row
 * actions a mail's state allows, the attachment mark, times in the site's time zone.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Admin\Outbox_List_Table;

final class Outbox_List_Table_Test extends Plugin_Test_Case {

	/** @var array<string, mixed> */
	private $saved_request;

	/** @var string */
	private $saved_timezone;

	public static function setUpBeforeClass(): void {
		parent::setUpBeforeClass();
		require_once ABSPATH . 'wp-admin/includes/class-wp-screen.php';
		require_once ABSPATH . 'wp-admin/includes/screen.php';
		require_once ABSPATH . 'wp-admin/includes/class-wp-list-table.php';
	}

	protected function setUp(): void {
		parent::setUp();
		$this->saved_request  = $_REQUEST;
		$this->saved_timezone = (string) get_option( 'timezone_string' );
	}

	protected function tearDown(): void {
		$_REQUEST = $this->saved_request;
		$_GET     = array();
		update_option( 'timezone_string', $this->saved_timezone );
		self::empty_outbox();
		parent::tearDown();
	}

	/**
	 * The list drawn for a request.
	 *
	 * @param array<string, string> $request Query arguments.
	 */
	private function draw( array $request = array() ) {
		$_REQUEST = $request;
		$_GET     = $request;
		$table    = new Outbox_List_Table( array( 'screen' => 'tools_page_sitebeam-outbox' ) );
		$table->prepare_items();
		ob_start();
		$table->views();
		$table->display();
		return (string) ob_get_clean();
	}

	public function test_every_cell_is_escaped() {
		sitebeam_test_outbox_insert(
			array(
				'recipient'  => '"><img src=x onerror=alert(1)>@example.com',
				'subject'    => '<script>alert("subject")</script>',
				'last_error' => '<b>HTTP 503</b> & co',
				'attachment' => '<i>invoice</i>.pdf',
				'tries'      => 2,
			)
		);
		$html = $this->draw();
		$this->assertStringNotContainsString( '<script>alert', $html );
		$this->assertStringNotContainsString( '<img src=x', $html );
		$this->assertStringNotContainsString( '<b>HTTP 503</b>', $html );
		$this->assertStringNotContainsString( '<i>invoice</i>', $html );
		$this->assertStringContainsString( '&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;', $html );
		$this->assertStringContainsString( '&lt;b&gt;HTTP 503&lt;/b&gt; &amp; co', $html );
		$this->assertStringContainsString( 'dashicons-paperclip', $html, 'a mail with an attachment is marked' );
	}

	public function test_views_with_counts_and_the_range_shown() {
		sitebeam_test_outbox_insert( array(), 22 );
		sitebeam_test_outbox_insert( array( 'state' => 'failed' ), 3 );
		$html = $this->draw();
		$this->assertMatchesRegularExpression( '#class="current" aria-current="page">All <span class="count">\(25\)</span>#', $html );
		$this->assertStringContainsString( 'Waiting <span class="count">(22)</span>', $html );
		$this->assertStringContainsString( 'Failed <span class="count">(3)</span>', $html );
		$this->assertStringContainsString( '<span class="displaying-num">1–20 of 25</span>', $html );
		$this->assertSame( 20, substr_count( $html, 'name="mail[]"' ) );

		$second = $this->draw( array( 'paged' => '2' ) );
		$this->assertStringContainsString( '<span class="displaying-num">21–25 of 25</span>', $second );
		$failed = $this->draw( array( 'view' => 'failed' ) );
		$this->assertStringContainsString( '<span class="displaying-num">1–3 of 3</span>', $failed );
		$this->assertMatchesRegularExpression( '#class="current" aria-current="page">Failed#', $failed );
	}

	public function test_empty_views_say_what_is_true() {
		sitebeam_test_outbox_insert( array( 'state' => 'failed' ) );
		$this->assertStringContainsString( 'No mail is waiting.', $this->draw( array( 'view' => 'waiting' ) ) );
		$this->assertStringContainsString( 'No mail in this view matches “nobody”.', $this->draw( array( 's' => 'nobody' ) ) );
		self::empty_outbox();
		$all = $this->draw();
		$this->assertStringContainsString( 'The outbox is empty: no mail is waiting and none has failed.', $all );
		$this->assertStringNotContainsString( 'handed to the instance', $all );
	}

	public function test_a_refused_mail_asks_before_sending_again_and_delete_always_asks() {
		$refused = sitebeam_test_outbox_insert(
			array(
				'state'   => 'failed',
				'failure' => 'refused',
			)
		)[0];
		$waiting = sitebeam_test_outbox_insert( array() )[0];
		$html    = $this->draw();
		$this->assertStringContainsString( 'confirm=send-again&#038;mail=' . $refused, $html, 'Send again leads to a question' );
		$this->assertStringNotContainsString( 'do=send&#038;mail=' . $refused, $html, 'no link sends it at once' );
		$this->assertMatchesRegularExpression( '~admin-post\.php\?action=sitebeam_outbox&#038;do=send&#038;mail=' . $waiting . '&#038;_wpnonce=\w+~', $html );
		$this->assertStringContainsString( 'confirm=delete&#038;mail=' . $waiting, $html );
		$this->assertStringNotContainsString( 'do=delete', $html, 'Delete only ever leads to its question' );
	}

	public function test_times_are_the_sites_and_a_past_next_try_is_overdue() {
		update_option( 'timezone_string', 'Pacific/Auckland' );
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Overdue',
				'age'     => 7200,
				'next_in' => -300,
			)
		);
		$next = time() + 3 * HOUR_IN_SECONDS;
		sitebeam_test_outbox_insert(
			array(
				'subject' => 'Later',
				'next_in' => 3 * HOUR_IN_SECONDS,
			)
		);
		$html = $this->draw( array( 'orderby' => 'queued' ) );
		$this->assertStringContainsString( 'Overdue: at the next cron run', $html );
		$this->assertStringContainsString( '2 hours ago', $html );
		$auckland = ( new \DateTimeImmutable( '@' . $next ) )->setTimezone( new \DateTimeZone( 'Pacific/Auckland' ) );
		$this->assertStringContainsString( $auckland->format( get_option( 'time_format' ) ) . ')', $html, 'the next try in the site\'s time zone' );
		$this->assertStringContainsString( 'In 3 hours', $html );
	}
}
