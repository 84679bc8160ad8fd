<?php
/**
 * The outbox against the real stub: a passing failure (503, 429 with Retry-After, a time-out, the instance stopped)
 * keeps the mail and wp_mail() answers true; cron delivers it once the instance is back, in order, attachment intact;
 * a refusal for good fails at once; two cron runs side by side (two PHP processes) send nothing twice. What #35 added
 * (no mail holds another, recovery, crashes, shares) is in Outbox_Delivery_Test.
 *
 * Every fault names its test's own mail by a marker in the subject (body_contains).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Privacy\Outbox_Privacy;

final class Outbox_Test extends Plugin_Test_Case {

	/** @var \WP_Error[] */
	private $failures = array();

	/** @var string Text in this test's subjects, which its faults match. */
	private $marker;

	protected function setUp(): void {
		parent::setUp();
		$this->marker = 'outbox-' . wp_generate_password( 10, false );
		add_action(
			'wp_mail_failed',
			function ( $error ) {
				$this->failures[] = $error;
			}
		);
	}

	protected function tearDown(): void {
		Stub::clear_faults();
		self::empty_outbox();
		parent::tearDown();
	}

	public function test_503_keeps_every_mail_and_cron_delivers_each_once_in_order_with_its_attachment() {
		Stub::fail_marked( $this->marker, 503, array( 'retry_after' => 120 ) );
		$bytes = random_bytes( 3000 ) . "%PDF\x00\xff";
		$dir   = get_temp_dir() . $this->marker;
		$file  = $dir . '/invoice.pdf';
		wp_mkdir_p( $dir );
		file_put_contents( $file, $bytes ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a test file.
		$before = time();
		for ( $i = 1; $i <= 3; $i++ ) {
			$this->assertTrue( wp_mail( "order$i@example.com", "Order $i {$this->marker}", "Order number $i", array(), 2 === $i ? array( $file ) : array() ) );
		}
		wp_delete_file( $file );
		rmdir( $dir ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a test folder.

		$this->assertSame( array(), $this->mine( Stub::messages() ), 'nothing reached the instance' );
		$rows = Outbox::rows();
		$this->assertSame( array( 'order1@example.com', 'order2@example.com', 'order3@example.com' ), array_column( $rows, 'recipient' ) );
		$this->assertSame( array( '1', '1', '1' ), array_column( $rows, 'tries' ), 'new mail is tried at once, whatever waits' );
		$this->assertGreaterThanOrEqual( $before + 120, (int) $rows[0]['next_try'], 'Retry-After is honoured' );
		$this->assertStringContainsString( 'HTTP 503', $rows[0]['last_error'] );
		$this->assertSame( Send_Log::QUEUED, Send_Log::entries()[0]['result'] );
		$this->assertSame( array(), $this->failures );
		$this->assertNotFalse( wp_next_scheduled( Outbox_Sender::WATCH_HOOK ), 'a cron run comes every minute while mail waits' );

		$this->assertSame( 0, Outbox_Sender::run()['sent'], 'before its next try nothing is sent' );
		Stub::clear_faults();
		$this->pass_time();
		$done = Outbox_Sender::run();

		$this->assertSame( 3, $done['sent'] );
		$messages = $this->mine( Stub::messages() );
		$this->assertSame( array( 'order1@example.com', 'order2@example.com', 'order3@example.com' ), array_column( $messages, 'to' ), 'each once, in order' );
		$this->assertSame( "Order 2 {$this->marker}", $messages[1]['subject'] );
		$this->assertSame( $bytes, base64_decode( $messages[1]['attachment']['b64'] ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions -- the API's attachment encoding.
		$this->assertSame( 'invoice.pdf', $messages[1]['attachment']['file_name'] );
		$this->assertSame( array(), Outbox::rows(), 'a delivered mail is deleted at once' );
		$this->assertSame( Send_Log::SENT, Send_Log::entries()[0]['result'] );
	}

	public function test_429_with_retry_after_waits_that_long_and_is_then_sent_once() {
		Stub::fail_marked( $this->marker, 429, array( 'retry_after' => 900 ) );
		$before = time();
		$this->assertTrue( wp_mail( 'ann@example.com', "Hello {$this->marker}", 'Body' ) );
		$row = Outbox::rows()[0];
		$this->assertGreaterThanOrEqual( $before + 900, (int) $row['next_try'] );
		$this->assertStringContainsString( 'too many requests', $row['last_error'] );

		Stub::clear_faults();
		$this->pass_time();
		$this->assertSame( 1, Outbox_Sender::run()['sent'] );
		$this->assertCount( 1, $this->mine( Stub::messages() ) );
	}

	public function test_a_time_out_keeps_the_mail_and_it_is_delivered_at_least_once() {
		self::api_timeout( 1 );
		Stub::faults(
			array(
				'delay_ms'      => 2500,
				'times'         => 1,
				'body_contains' => $this->marker,
			)
		);
		$this->assertTrue( wp_mail( 'ann@example.com', "Slow {$this->marker}", 'Body' ) );
		$this->assertCount( 1, Outbox::rows() );
		$this->assertStringContainsString( 'cannot be reached', Outbox::rows()[0]['last_error'] );

		$this->pass_time();
		$this->assertSame( 1, Outbox_Sender::run()['sent'] );
		$this->assertSame( array(), Outbox::rows() );
		// The instance may have sent the first try after the plugin stopped waiting: at least once, never zero.
		$this->assertGreaterThanOrEqual( 1, count( $this->mine( Stub::messages() ) ) );
	}

	public function test_with_the_instance_stopped_mail_waits_and_is_sent_exactly_once_when_it_is_back() {
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		$this->assertTrue( wp_mail( 'ann@example.com', "First {$this->marker}", 'One' ) );
		$this->assertTrue( wp_mail( 'bob@example.com', "Second {$this->marker}", 'Two' ) );
		$this->pass_time();
		$this->assertSame( 0, Outbox_Sender::run()['sent'], 'still down: tried again and kept' );
		// The second mail was kept untried (the circuit breaker: the first got no answer); the run tries both.
		$this->assertSame( array( '2', '1' ), array_column( Outbox::rows(), 'tries' ) );
		$this->assertStringContainsString( 'cannot be reached', Outbox::rows()[0]['last_error'] );

		$this->set_settings( array( 'api_url' => Stub::url() ) );
		$this->pass_time();
		$this->assertSame( 2, Outbox_Sender::run()['sent'] );
		$this->assertSame( array( 'ann@example.com', 'bob@example.com' ), array_column( $this->mine( Stub::messages() ), 'to' ) );
	}

	/**
	 * The stub answers an injected 422 on /v1/email with a 500 of its own (its 422 is FastAPI's validation shape), so
	 * the refusals for good are tried with the other statuses; Api_Client reads a real 422 as invalid_payload.
	 *
	 * @return array<string, array{int}>
	 */
	public static function refusals() {
		return array(
			'400 invalid payload' => array( 400 ),
			'401 token refused'   => array( 401 ),
			'403 email API off'   => array( 403 ),
			'413 too large'       => array( 413 ),
		);
	}

	/**
	 * @dataProvider refusals
	 *
	 * @param int $status The instance's answer.
	 */
	#[DataProvider( 'refusals' )]
	public function test_a_refusal_for_good_fails_at_once_and_is_never_kept_or_retried( $status ) {
		$this->set_settings( array( 'fallback' => false ) );
		Stub::fail_marked( $this->marker, $status );
		$this->assertFalse( wp_mail( 'ann@example.com', "Refused {$this->marker}", 'Body' ) );
		$this->assertCount( 1, $this->failures );
		$this->assertSame( array( 'ann@example.com' ), $this->failures[0]->get_error_data()['failed_recipients'] );
		$this->assertSame( array(), Outbox::rows() );
		$this->assertSame( Send_Log::FAILED, Send_Log::entries()[0]['result'] );
		$this->assertFalse( wp_next_scheduled( Outbox_Sender::HOOK ) );
	}

	public function test_the_services_own_422_is_a_refusal_for_good_never_kept() {
		$this->set_settings(
			array(
				'fallback' => false,
				'api_url'  => 'https://api.example.com',
			)
		);
		$service = new Fake_Service();
		try {
			$service->answer( \Sitebeam\Contract::PATH_EMAIL, 422, Fake_Service::INVALID_TO );
			$this->assertFalse( wp_mail( 'ann@example.com', "Refused {$this->marker}", 'Body' ) );
		} finally {
			$service->stop();
		}
		$this->assertCount( 1, $this->failures );
		$this->assertStringContainsString( 'value is not a valid email address', $this->failures[0]->get_error_message() );
		$this->assertSame( array(), Outbox::rows() );
	}

	public function test_a_mail_past_its_lifetime_is_given_up_before_it_is_sent_with_wp_mail_failed_and_kept_visible() {
		$this->set_settings( array( 'outbox_lifetime' => 72 ) );
		Stub::fail_marked( $this->marker, 500 );
		$this->assertTrue( wp_mail( 'ann@example.com', "Old {$this->marker}", 'Body' ) );
		// The instance is back, but the mail's 72 hours are over: it is given up before any more try.
		Stub::clear_faults();
		Clock::advance( 72 * HOUR_IN_SECONDS );
		$done = Outbox_Sender::run();

		$this->assertSame( array(), $this->mine( Stub::messages() ), 'never sent after its lifetime' );
		$this->assertSame( 0, $done['sent'] );
		$this->assertSame( 1, $done['failed'] );
		$this->assertSame( \Sitebeam\Mail\Outbox::FAILURE_EXPIRED, Outbox::rows()[0]['failure'] );
		$row = Outbox::rows()[0];
		$this->assertSame( Outbox::FAILED, $row['state'] );
		$this->assertStringContainsString( 'Given up after 72 hours', $row['last_error'] );
		$this->assertCount( 1, $this->failures );
		$this->assertSame( array( 'ann@example.com' ), $this->failures[0]->get_error_data()['failed_recipients'] );
		$this->assertSame( 1, Outbox::summary()['failed'] );
		$this->assertSame( 0, Outbox_Sender::run()['sent'] + Outbox_Sender::run()['failed'], 'a failed mail is not tried again by cron' );
	}

	public function test_a_full_outbox_fails_a_new_mail_at_once_with_a_clear_error() {
		$this->set_settings(
			array(
				'outbox_max_mails' => 2,
				'outbox_contacts'  => 0,
				'fallback'         => false,
			)
		);
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		$this->assertTrue( wp_mail( 'a@example.com', "One {$this->marker}", 'x' ) );
		$this->assertTrue( wp_mail( 'b@example.com', "Two {$this->marker}", 'x' ) );
		$this->assertFalse( wp_mail( 'c@example.com', "Three {$this->marker}", 'x' ) );
		$this->assertCount( 2, Outbox::rows() );
		$this->assertStringContainsString( 'outbox is full', $this->failures[0]->get_error_message() );
		$this->assertSame( 'sitebeam_outbox_full', $this->failures[0]->get_error_data()['sitebeam_error_code'] );
	}

	public function test_two_cron_runs_side_by_side_send_nothing_twice() {
		Stub::fail_marked( $this->marker, 503 );
		$count = 12;
		for ( $i = 1; $i <= $count; $i++ ) {
			$this->assertTrue( wp_mail( "r$i@example.com", "Mail $i {$this->marker}", 'x' ) );
		}
		// Each send now takes 150 ms, so the two runs overlap.
		Stub::faults(
			array(
				'delay_ms'      => 150,
				'body_contains' => $this->marker,
			)
		);
		$this->pass_time();
		$results = $this->run_cron_in_two_processes();

		$this->assertSame( $count, array_sum( array_column( $results, 'sent' ) ), wp_json_encode( $results ) );
		$expected = array();
		for ( $i = 1; $i <= $count; $i++ ) {
			$expected[] = "r$i@example.com";
		}
		$this->assertSame( $expected, array_column( $this->mine( Stub::messages() ), 'to' ) );
		$this->assertSame( array(), Outbox::rows() );
	}

	public function test_a_held_lock_keeps_a_second_sender_out_and_one_past_its_expiry_is_taken_over() {
		global $wpdb;
		$this->keep_one_mail_until_due( "Locked {$this->marker}" );
		$wpdb->insert( $wpdb->options, array( 'option_name' => Outbox_Sender::LOCK_OPTION, 'option_value' => ( time() + 600 ) . ':another-sender', 'autoload' => 'no' ) ); // phpcs:ignore WordPress.DB

		$done = Outbox_Sender::run();
		$this->assertTrue( $done['locked'] );
		$this->assertSame( 0, $done['sent'] );
		$this->assertSame( array(), $this->mine( Stub::messages() ) );

		$wpdb->update( $wpdb->options, array( 'option_value' => ( time() - 1 ) . ':another-sender' ), array( 'option_name' => Outbox_Sender::LOCK_OPTION ) ); // phpcs:ignore WordPress.DB
		$done = Outbox_Sender::run();
		$this->assertFalse( $done['locked'], 'the lock of a sender that died is taken over' );
		$this->assertSame( 1, $done['sent'] );
		$this->assertNull( $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", Outbox_Sender::LOCK_OPTION ) ), 'released' ); // phpcs:ignore WordPress.DB
	}

	public function test_a_mail_claimed_by_a_sender_that_died_is_sent_again_once_its_claim_expires() {
		global $wpdb;
		$this->keep_one_mail_until_due( "Claimed {$this->marker}" );
		$wpdb->query( $wpdb->prepare( 'UPDATE ' . Outbox::table() . ' SET state = %s, claimed_until = %d', Outbox::SENDING, time() + 300 ) ); // phpcs:ignore WordPress.DB

		$this->assertSame( 0, Outbox_Sender::run()['sent'], 'claimed by a live sender: left alone' );
		$wpdb->query( $wpdb->prepare( 'UPDATE ' . Outbox::table() . ' SET claimed_until = %d', time() - 1 ) ); // phpcs:ignore WordPress.DB
		$this->assertSame( 1, Outbox_Sender::run()['sent'] );
		$this->assertCount( 1, $this->mine( Stub::messages() ) );
	}

	public function test_the_privacy_tools_export_and_erase_waiting_mail() {
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		wp_mail( 'Ann <Ann@Example.com>', "For Ann {$this->marker}", 'Secret body' );
		wp_mail( 'bob@example.com', "For Bob {$this->marker}", 'Other' );
		$exporters = apply_filters( 'wp_privacy_personal_data_exporters', array() );
		$this->assertArrayHasKey( Outbox_Privacy::ID, $exporters );
		$export = call_user_func( $exporters[ Outbox_Privacy::ID ]['callback'], 'ann@example.com', 1 );
		$this->assertCount( 1, $export['data'] );
		$this->assertStringContainsString( 'Secret body', (string) wp_json_encode( $export['data'][0]['data'] ) );

		$erasers = apply_filters( 'wp_privacy_personal_data_erasers', array() );
		$erased  = call_user_func( $erasers[ Outbox_Privacy::ID ]['callback'], 'ann@example.com', 1 );
		$this->assertTrue( $erased['items_removed'] );
		$this->assertSame( array( 'bob@example.com' ), array_column( Outbox::rows(), 'recipient' ) );
	}

	public function test_the_settings_take_whole_numbers_in_range_and_name_a_refused_one() {
		global $wp_settings_errors;
		$wp_settings_errors = array(); // phpcs:ignore WordPress.WP.GlobalVariablesOverride -- a test starts with no settings error.
		$clean = \Sitebeam\Admin\Settings_Sanitizer::sanitize(
			array(
				'outbox_lifetime'  => '48',
				'outbox_max_mails' => 'lots',
				'outbox_max_mb'    => '0',
				'outbox_contacts'  => '95',
				'outbox_keep_days' => '7',
			)
		);
		$this->assertSame( 48, $clean['outbox_lifetime'] );
		$this->assertSame( 1000, $clean['outbox_max_mails'] );
		$this->assertSame( 50, $clean['outbox_max_mb'] );
		$this->assertSame( 50, $clean['outbox_contacts'], 'at most 90 %: the site’s own mail always has room' );
		$this->assertSame( 7, $clean['outbox_keep_days'] );
		$codes = array_column( get_settings_errors( \Sitebeam\Settings::OPTION ), 'code' );
		$this->assertContains( 'sitebeam_outbox_max_mails', $codes );
		$this->assertContains( 'sitebeam_outbox_max_mb', $codes );
		$this->assertContains( 'sitebeam_outbox_contacts', $codes );
		$this->assertNotContains( 'sitebeam_outbox_lifetime', $codes );
		$this->assertNotContains( 'sitebeam_outbox_keep_days', $codes );
	}

	public function test_backoff_starts_within_a_minute_doubles_to_at_most_an_hour_and_honours_retry_after() {
		for ( $i = 0; $i < 20; $i++ ) {
			$first = Outbox::delay( 1 );
			$this->assertGreaterThanOrEqual( 15, $first );
			$this->assertLessThanOrEqual( 60, $first );
			$this->assertLessThanOrEqual( HOUR_IN_SECONDS, Outbox::delay( 30 ) );
			$this->assertGreaterThanOrEqual( HOUR_IN_SECONDS / 2, Outbox::delay( 30 ) );
			$this->assertGreaterThanOrEqual( 300, Outbox::delay( 1, 300 ) );
		}
	}

	/**
	 * The messages of this test only.
	 *
	 * @param array<int, array<string, mixed>> $messages The stub's.
	 */
	private function mine( array $messages ) {
		return array_values(
			array_filter(
				$messages,
				function ( $message ) {
					return false !== strpos( (string) $message['subject'], $this->marker );
				}
			)
		);
	}

	/**
	 * A mail to ann kept in the outbox while the instance could not be reached, the instance back and the mail due.
	 *
	 * @param string $subject The mail's subject.
	 */
	private function keep_one_mail_until_due( $subject ) {
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		$this->assertTrue( wp_mail( 'ann@example.com', $subject, 'x' ) );
		$this->set_settings( array( 'api_url' => Stub::url() ) );
		$this->pass_time();
	}

	/**
	 * Time passes: the longest backoff (every waiting mail is due, the circuit breaker closed).
	 */
	private function pass_time() {
		Clock::advance( \Sitebeam\Contract::OUTBOX_MAX_RETRY_S );
	}

	/**
	 * Starts two PHP processes that each run the outbox's cron hook, both before either is waited for.
	 *
	 * @return array<int, array<string, mixed>> Each process's Outbox_Sender::run() result.
	 */
	private function run_cron_in_two_processes() {
		// This PHPUnit's own PHP: on the 8.4 half it already runs inside the Debian 13 root (tests/support/php84).
		$php    = PHP_BINARY;
		$script = __DIR__ . '/support/run-outbox.php';
		$procs  = array();
		for ( $i = 0; $i < 2; $i++ ) {
			$procs[] = proc_open( array( $php, $script ), array( 1 => array( 'pipe', 'w' ), 2 => array( 'pipe', 'w' ) ), $pipes[ $i ] ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- two real processes are the point.
		}
		$results = array();
		foreach ( $procs as $i => $proc ) {
			$out = stream_get_contents( $pipes[ $i ][1] );
			$err = stream_get_contents( $pipes[ $i ][2] );
			proc_close( $proc );
			$decoded = json_decode( trim( (string) $out ), true );
			$this->assertIsArray( $decoded, "process $i: $out $err" );
			$results[] = $decoded;
		}
		return $results;
	}
}
