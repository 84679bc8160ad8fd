<?php
/**
 * Mail never stuck (issue #35), against the real stub and real PHP processes: no mail holds another, recovery starts
 * a drain at once, a sender killed with SIGKILL leaves nothing cron alone cannot deliver, the site's own mail keeps
 * its room whatever contact posts arrive, Send now works on any mail, and wp_mail's hooks fire for mail the outbox
 * delivers later as they would have at once.
 *
 * Every fault names its test's own mail by a marker (body_contains). Time that must pass (a backoff, a lock's
 * expiry) passes on the scaled clock of Clock::advance().
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Contract;
use Sitebeam\Mail\Delivery_State;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;
use Sitebeam\Mail\Send_Log;
use WP_REST_Request;

final class Outbox_Delivery_Test extends Plugin_Test_Case {

	/** @var string Text in this test's mail, which its faults match. */
	private $marker;

	/** @var \WP_Error[] */
	private $failures = array();

	protected function setUp(): void {
		parent::setUp();
		$this->marker = 'deliver-' . strtolower( wp_generate_password( 10, false ) );
		add_action(
			'wp_mail_failed',
			function ( $error ) {
				$this->failures[] = $error;
			}
		);
		// The posts of a test are its own: none is refused for another test's.
		add_filter(
			'sitebeam_contact_rate_limit',
			static function () {
				return array(
					'max'    => 100,
					'window' => 60,
				);
			}
		);
	}

	protected function tearDown(): void {
		Stub::clear_faults();
		// A run a test spawned (the served site's WP-Cron) ends before the next test's mail exists.
		$this->wait_until(
			static function () {
				global $wpdb;
				return null === $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", Outbox_Sender::LOCK_OPTION ) ); // phpcs:ignore WordPress.DB
			},
			30,
			'a spawned run'
		);
		self::empty_outbox();
		remove_all_actions( 'wp_mail_succeeded' );
		remove_all_filters( 'sitebeam_contact_rate_limit' );
		parent::tearDown();
	}

	public function test_one_poisoned_mail_holds_no_other_and_a_password_reset_behind_it_arrives_at_once() {
		$this->poison( false );
		$this->assertTrue( wp_mail( 'ann@example.com', "Invoice {$this->marker}", "poison {$this->marker}" ) );
		$this->assertCount( 1, Outbox::rows(), 'the poisoned mail waits' );

		$user = $this->user();
		$this->assertTrue( retrieve_password( $user->user_login ) );
		$reset = $this->to( $user->user_email );
		$this->assertCount( 1, $reset, 'the reset went out at once, though older mail waits' );
		$this->assertStringContainsString( 'action=rp', $reset[0]['content'] );
		$this->assertSame( array( 'ann@example.com' ), array_column( Outbox::rows(), 'recipient' ) );
	}

	public function test_a_run_moves_on_past_a_mail_that_fails_again_and_delivers_the_mail_behind_it() {
		$this->poison( true );
		$this->assertTrue( wp_mail( 'poisoned@example.com', "Poisoned {$this->marker}", "poison {$this->marker}" ) );
		$this->assertTrue( wp_mail( 'b@example.com', "B {$this->marker}", "outage {$this->marker}" ) );
		$this->assertTrue( wp_mail( 'c@example.com', "C {$this->marker}", "outage {$this->marker}" ) );
		// The outage ends; the poisoned mail still fails.
		$this->poison( false );
		Clock::advance( Contract::OUTBOX_MAX_RETRY_S );
		$done = Outbox_Sender::run();

		$this->assertSame( 2, $done['sent'] );
		$this->assertSame( 1, $done['waiting'] );
		$this->assertSame( array( 'b@example.com', 'c@example.com' ), array_column( $this->mine(), 'to' ), 'in order, past the poisoned mail' );
		$rows = Outbox::rows();
		$this->assertSame( array( 'poisoned@example.com' ), array_column( $rows, 'recipient' ) );
		$this->assertSame( '2', $rows[0]['tries'] );
		$history = json_decode( $rows[0]['history'], true );
		$this->assertSame( array( 500, 500 ), array_column( $history, 'status' ) );
	}

	public function test_a_run_stops_after_three_failures_of_one_kind_in_a_row_the_instance_is_down() {
		Stub::fail_marked( $this->marker, 503 );
		for ( $i = 1; $i <= 5; $i++ ) {
			$this->assertTrue( wp_mail( "r$i@example.com", "Mail $i {$this->marker}", 'x' ) );
		}
		Clock::advance( Contract::OUTBOX_MAX_RETRY_S );
		$done = Outbox_Sender::run();

		$this->assertSame( Contract::OUTBOX_STOP_AFTER_SAME_FAILURES, $done['waiting'] );
		$this->assertSame( array( '2', '2', '2', '1', '1' ), array_column( Outbox::rows(), 'tries' ) );
		$this->assertNotNull( Delivery_State::get()['failing_since'] );
		$this->assertStringContainsString( 'HTTP 503', Delivery_State::get()['last_error'] );
	}

	public function test_a_hung_instance_costs_one_time_out_then_new_mail_goes_straight_to_the_outbox_until_a_success() {
		self::api_timeout( 1 );
		Stub::faults(
			array(
				'delay_ms'      => 2500,
				'status'        => 503,
				'body_contains' => "hang {$this->marker}",
			)
		);
		$this->assertTrue( wp_mail( 'first@example.com', "First {$this->marker}", "hang {$this->marker}" ) );
		$opened = time();

		$this->assertTrue( wp_mail( 'second@example.com', "Second {$this->marker}", 'not held by the stub' ) );
		$second = Outbox::rows()[1];
		$this->assertSame( '0', $second['tries'], 'kept without a try while the breaker is open' );
		$this->assertStringContainsString( 'Not tried yet', $second['last_error'] );
		$this->assertSame( array(), $this->mine(), 'the instance never saw the second mail' );

		$breaker = Delivery_State::get()['breaker_until'];
		$this->assertGreaterThan( $opened, $breaker );
		$this->assertLessThanOrEqual( $opened + Contract::OUTBOX_BREAKER_S, $breaker );
		Clock::advance( Contract::OUTBOX_BREAKER_S + 1 );
		$this->assertTrue( wp_mail( 'third@example.com', "Third {$this->marker}", 'after the breaker' ) );
		$this->assertCount( 1, $this->to( 'third@example.com' ), 'tried at once once the breaker closed' );
		$this->assertSame( 0, Delivery_State::get()['breaker_until'], 'a success closes it' );
		// And starts the drain (a spawned WP-Cron run): the mail the breaker kept follows.
		$this->wait_until(
			function () {
				return 1 === count( $this->to( 'second@example.com' ) );
			},
			30,
			'the kept mail drained'
		);
	}

	public function test_the_first_mail_through_after_an_outage_drains_a_backlog_whose_backoff_had_grown() {
		$this->keep_during_outage( 3 );
		$this->set_settings( array( 'api_url' => Stub::url() ) );
		Clock::advance( Contract::OUTBOX_BREAKER_S + 1 );

		$this->assertTrue( wp_mail( 'new@example.com', "After recovery {$this->marker}", 'x' ) );
		$this->assertCount( 1, $this->to( 'new@example.com' ), 'new mail goes out at once' );
		// The drain runs in a WP-Cron request spawned now (the served site), not in this process.
		$this->wait_until(
			function () {
				return 4 === count( $this->mine() );
			},
			30,
			'the backlog drained by the spawned run'
		);
		$this->assertSame( array( 'new@example.com', 'backlog1@example.com', 'backlog2@example.com', 'backlog3@example.com' ), array_column( $this->mine(), 'to' ) );
		$this->wait_until(
			static function () {
				return array() === Outbox::rows();
			},
			10,
			'the delivered rows deleted'
		);
	}

	public function test_with_no_new_mail_the_minute_watch_notices_the_instance_is_back_and_drains_the_backlog() {
		$this->keep_during_outage( 3 );
		$this->assertNotFalse( wp_next_scheduled( Outbox_Sender::WATCH_HOOK ), 'the watch runs every minute while mail waits' );
		$this->set_settings( array( 'api_url' => Stub::url() ) );
		Clock::advance( MINUTE_IN_SECONDS );

		$done = Outbox_Sender::run();

		$this->assertSame( 3, $done['sent'], 'one mail tried before its time found the instance back; the rest followed' );
		$this->assertSame( array( 'backlog1@example.com', 'backlog2@example.com', 'backlog3@example.com' ), array_column( $this->mine(), 'to' ) );
		$this->assertNull( Delivery_State::get()['failing_since'] );
		$this->assertFalse( wp_next_scheduled( Outbox_Sender::WATCH_HOOK ), 'no watch once nothing waits' );
	}

	public function test_a_sender_killed_mid_send_leaves_nothing_that_cron_alone_cannot_deliver() {
		Stub::fail_marked( $this->marker, 503 );
		$this->assertTrue( wp_mail( 'ann@example.com', "Killed {$this->marker}", 'x' ) );
		// The instance now holds every send of this mail for 30 s, then fails it: the cron run hangs mid-send.
		Stub::fail_marked( $this->marker, 503, array( 'delay_ms' => 30000 ) );
		Clock::advance( MINUTE_IN_SECONDS );
		$cron = $this->php( __DIR__ . '/support/wp-cron.php' );
		$this->wait_until(
			static function () {
				$rows = Outbox::rows();
				return isset( $rows[0] ) && Outbox::SENDING === $rows[0]['state'];
			},
			30,
			'the cron run claiming the mail'
		);
		proc_terminate( $cron['process'], 9 ); // SIGKILL: no shutdown function, no finally block runs.
		proc_close( $cron['process'] );
		$this->assertSame( Outbox::SENDING, Outbox::rows()[0]['state'], 'the dead sender holds its claim' );
		wp_cache_flush();

		// The instance is back. Nobody sends now or calls the plugin: only the system cron runs wp-cron.php, once a
		// minute, as it would after the kill; the dead sender's lock and claim expire.
		Stub::clear_faults();
		$runs = 0;
		while ( $runs < 3 && array() !== Outbox::rows() ) {
			Clock::advance( MINUTE_IN_SECONDS );
			$this->system_cron();
			++$runs;
		}
		$this->assertSame( array(), Outbox::rows(), 'delivered by cron alone, within three minutes (the lock\'s two, and a run)' );
		$this->assertSame( array( 'ann@example.com' ), array_column( $this->mine(), 'to' ) );
	}

	public function test_a_contact_flood_during_an_outage_never_takes_the_room_of_a_password_reset() {
		$this->set_settings(
			array(
				'api_url'          => 'http://127.0.0.1:9',
				'outbox_max_mails' => 6,
				'outbox_contacts'  => 50,
			)
		);
		$statuses = array();
		for ( $i = 1; $i <= 6; $i++ ) {
			$statuses[] = $this->post_contact( array( 'subject' => "Bot $i {$this->marker}" ) )->get_status();
		}
		$this->assertSame( array( 202, 202, 202, 502, 502, 502 ), $statuses, 'half the outbox, then "try again": never a 202 not kept' );
		$this->assertSame( 3, count( Outbox::rows() ) );

		$user = $this->user();
		$this->assertTrue( retrieve_password( $user->user_login ), 'the reset is kept: the contact messages have their own share' );
		$rows = Outbox::rows();
		$this->assertSame( array( Outbox::KIND_CONTACT, Outbox::KIND_CONTACT, Outbox::KIND_CONTACT, Outbox::KIND_SITE ), array_column( $rows, 'kind' ) );
		$this->assertSame( $user->user_email, $rows[3]['recipient'] );
		$this->assertSame( array(), $this->failures );
	}

	public function test_send_now_sends_a_later_mail_whatever_waits_before_it_and_says_what_happened() {
		$this->poison( true );
		wp_mail( 'poisoned@example.com', "Poisoned {$this->marker}", "poison {$this->marker}" );
		wp_mail( 'later@example.com', "Later {$this->marker}", "outage {$this->marker}" );
		list( $poisoned, $later ) = array_map( 'intval', array_column( Outbox::rows(), 'id' ) );
		// WP-Cron spawned a run within the last minute, so the drain Send now's success starts waits for the next
		// cron run: this test alone decides what is sent.
		set_transient( 'doing_cron', sprintf( '%.22F', microtime( true ) ) );
		$this->poison( false );

		$this->assertSame( 'sent', Outbox_Sender::send_one( $later )['outcome'] );
		$this->assertSame( array( 'later@example.com' ), array_column( $this->mine(), 'to' ) );
		$this->assertSame( array( (string) $poisoned ), array_column( Outbox::rows(), 'id' ), 'the mail before it is left as it was' );
		$this->assertSame( 'gone', Outbox_Sender::send_one( $later )['outcome'] );

		$again = Outbox_Sender::send_one( $poisoned );
		$this->assertSame( 'waiting', $again['outcome'] );
		$this->assertStringContainsString( 'HTTP 500', $again['detail'] );

		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => "poison {$this->marker}",
			)
		);
		$this->assertSame( 'failed', Outbox_Sender::send_one( $poisoned )['outcome'] );
		$this->assertSame( Outbox::FAILURE_REFUSED, Outbox::rows()[0]['failure'] );
		$this->assertSame( 'needs_confirmation', Outbox_Sender::send_one( $poisoned )['outcome'] );
		$this->assertSame( '3', Outbox::rows()[0]['tries'], 'nothing sent without the confirmation' );

		Stub::clear_faults();
		global $wpdb;
		$wpdb->update( Outbox::table(), array( 'state' => Outbox::SENDING, 'claimed_until' => time() + 60 ), array( 'id' => $poisoned ) ); // phpcs:ignore WordPress.DB
		$this->assertSame( 'busy', Outbox_Sender::send_one( $poisoned, true )['outcome'] );
		$wpdb->update( Outbox::table(), array( 'state' => Outbox::FAILED, 'claimed_until' => 0 ), array( 'id' => $poisoned ) ); // phpcs:ignore WordPress.DB
		$this->assertSame( 'sent', Outbox_Sender::send_one( $poisoned, true )['outcome'] );
		$this->assertSame( array(), Outbox::rows() );
	}

	public function test_wp_mail_succeeded_fires_once_for_mail_the_outbox_delivers_later_with_the_mail_as_wp_mail_was_given_it() {
		$given     = null;
		$succeeded = array();
		add_filter(
			'wp_mail',
			static function ( $atts ) use ( &$given ) {
				$given = $atts;
				return $atts;
			},
			PHP_INT_MAX
		);
		add_action(
			'wp_mail_succeeded',
			static function ( $atts ) use ( &$succeeded ) {
				$succeeded[] = $atts;
			}
		);
		Stub::fail_marked( $this->marker, 503 );
		$this->assertTrue( wp_mail( array( 'ann@example.com', 'bob@example.com' ), "Order {$this->marker}", 'Thanks', array( 'Reply-To: shop@example.com' ) ) );
		$this->assertSame( array(), $succeeded, 'not delivered yet' );

		Stub::clear_faults();
		Clock::advance( Contract::OUTBOX_MAX_RETRY_S );
		$this->assertSame( 2, Outbox_Sender::run()['sent'] );
		$this->assertCount( 1, $succeeded, 'once for the call, when its last copy is delivered' );
		$this->assertSame( $given, $succeeded[0] );
	}

	public function test_the_fallback_never_sends_a_second_copy_to_a_recipient_kept_in_the_outbox() {
		$this->set_settings( array( 'fallback' => true ) );
		$wordpress_mailer = array();
		add_action(
			'phpmailer_init',
			static function ( $phpmailer ) use ( &$wordpress_mailer ) {
				$wordpress_mailer[] = array_column( $phpmailer->getToAddresses(), 0 );
				$phpmailer->Mailer   = 'sendmail'; // phpcs:ignore WordPress.NamingConventions.ValidVariableName -- PHPMailer's property.
				$phpmailer->Sendmail = '/bin/true'; // phpcs:ignore WordPress.NamingConventions.ValidVariableName -- PHPMailer's property: nothing leaves this machine.
			}
		);
		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => '"to":"refused@example.com"',
			),
			array(
				'status'        => 503,
				'body_contains' => '"to":"kept@example.com"',
			)
		);
		wp_mail( array( 'kept@example.com', 'refused@example.com' ), "Both {$this->marker}", 'x' );

		$this->assertSame( array( 'kept@example.com' ), array_column( Outbox::rows(), 'recipient' ) );
		$this->assertSame( array( array( 'refused@example.com' ) ), $wordpress_mailer, 'WordPress mails the refused recipient only' );
	}

	public function test_the_cap_check_and_the_insert_are_one_so_a_racing_insert_cannot_pass_the_cap() {
		global $wpdb;
		$this->set_settings(
			array(
				'outbox_max_mails' => 2,
				'outbox_contacts'  => 0,
			)
		);
		$message = array(
			Contract::EMAIL_FIELD_TO      => 'ann@example.com',
			Contract::EMAIL_FIELD_SUBJECT => "Race {$this->marker}",
			Contract::EMAIL_FIELD_CONTENT => 'x',
		);
		$this->assertIsInt( Outbox::add( $message, 1, time() + 60, 'HTTP 503' ) );
		// Another request takes the last place between this one's check and its insert: from its own connection,
		// just before this request's INSERT reaches the database.
		$table = Outbox::table();
		$raced = false;
		$race  = static function ( $query ) use ( &$raced, $table ) {
			if ( ! $raced && preg_match( '/^\s*INSERT INTO `?' . preg_quote( $table, '/' ) . '\b/', $query ) ) {
				$raced = true;
				list( $host, $port ) = array_pad( explode( ':', DB_HOST ), 2, 3306 );
				$other               = new \mysqli( $host, DB_USER, DB_PASSWORD, DB_NAME, (int) $port );
				$other->query( "SET SESSION sql_mode = ''" );
				$other->query( "INSERT INTO $table (created_at, next_try, state, recipient, subject, message, bytes, last_error) VALUES (UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), 'waiting', 'other@example.com', 'Other', '{}', 2, '')" );
				$other->close();
			}
			return $query;
		};
		add_filter( 'query', $race );
		try {
			$refused = Outbox::add( $message, 1, time() + 60, 'HTTP 503' );
		} finally {
			remove_filter( 'query', $race );
		}
		$this->assertTrue( $raced );
		$this->assertWPError( $refused, Outbox::ERROR_FULL );
		$this->assertSame( 2, (int) $wpdb->get_var( "SELECT COUNT(*) FROM $table" ), 'never over the cap' ); // phpcs:ignore WordPress.DB
	}

	public function test_failed_mail_is_deleted_after_its_retention_period() {
		$this->set_settings( array( 'outbox_keep_days' => 30 ) );
		Stub::fail_marked( $this->marker, 503 );
		wp_mail( 'ann@example.com', "Refused later {$this->marker}", 'x' );
		Stub::fail_marked( $this->marker, 400 );
		Clock::advance( Contract::OUTBOX_MAX_RETRY_S );
		$this->assertSame( 1, Outbox_Sender::run()['failed'] );
		$this->assertNotFalse( wp_next_scheduled( Outbox_Sender::PURGE_HOOK ), 'a daily purge while failed mail is kept' );

		Clock::advance( 29 * DAY_IN_SECONDS );
		Outbox_Sender::action_purge();
		$this->assertCount( 1, Outbox::rows(), 'kept within its 30 days' );
		Clock::advance( 2 * DAY_IN_SECONDS );
		Outbox_Sender::action_purge();
		$this->assertSame( array(), Outbox::rows() );
		$this->assertFalse( wp_next_scheduled( Outbox_Sender::PURGE_HOOK ), 'the purge ends once nothing is left to purge' );
	}

	public function test_bulk_delete_by_state_and_kind_logs_each_mail() {
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		wp_mail( 'site@example.com', "Site {$this->marker}", 'x' );
		$this->assertSame( 202, $this->post_contact( array( 'subject' => "Contact {$this->marker}" ) )->get_status() );
		global $wpdb;
		$wpdb->insert( Outbox::table(), array( 'created_at' => time(), 'next_try' => time(), 'state' => Outbox::FAILED, 'failure' => Outbox::FAILURE_REFUSED, 'recipient' => 'failed@example.com', 'subject' => 'Failed', 'message' => '{}', 'last_error' => '', 'history' => '[]', 'wp_mail' => '' ) ); // phpcs:ignore WordPress.DB

		$this->assertSame( 1, Outbox::delete_all( Outbox::FAILED ) );
		$this->assertSame( array( Send_Log::DELETED, 'failed@example.com' ), array( Send_Log::entries()[0]['result'], Send_Log::entries()[0]['recipients'][0] ) );
		$this->assertSame( 1, Outbox::delete_all( Outbox::WAITING, Outbox::KIND_CONTACT ) );
		$this->assertSame( array( 'site@example.com' ), array_column( Outbox::rows(), 'recipient' ) );
		$this->assertSame( 1, Outbox::delete_all() );
		$this->assertSame( array(), Outbox::rows() );
	}

	public function test_a_visitors_contact_message_waiting_in_the_outbox_is_exported_and_erased_by_their_address() {
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		$posted = $this->post_contact(
			array(
				'email'   => 'Vee@Example.com',
				'message' => "My question {$this->marker}",
			)
		);
		$this->assertSame( 202, $posted->get_status() );
		$exporters = apply_filters( 'wp_privacy_personal_data_exporters', array() );
		$export    = call_user_func( $exporters[ \Sitebeam\Privacy\Outbox_Privacy::ID ]['callback'], 'vee@example.com', 1 );
		$this->assertCount( 1, $export['data'], 'found by the visitor’s address, though the owner is its recipient' );
		$this->assertStringContainsString( "My question {$this->marker}", (string) wp_json_encode( $export['data'][0]['data'] ) );

		$erasers = apply_filters( 'wp_privacy_personal_data_erasers', array() );
		$erased  = call_user_func( $erasers[ \Sitebeam\Privacy\Outbox_Privacy::ID ]['callback'], 'vee@example.com', 1 );
		$this->assertTrue( $erased['items_removed'] );
		$this->assertSame( array(), Outbox::rows() );
		$this->assertStringNotContainsString( 'vee@example.com', strtolower( (string) wp_json_encode( Send_Log::entries() ) ), 'erasing logs no deletion naming the address' );
	}

	public function test_a_retry_after_the_visitor_is_given_is_clamped_to_a_minute() {
		$this->set_settings( array( 'outbox_contacts' => 0 ) );
		Stub::fail_marked( $this->marker, 429, array( 'retry_after' => 86400 ) );
		$response = $this->post_contact( array( 'subject' => "Busy {$this->marker}" ) );
		$this->assertSame( 429, $response->get_status() );
		$this->assertSame( (string) Contract::CONTACT_RATE_LIMIT_WINDOW_S, $response->get_headers()['Retry-After'] );
		$this->assertSame( array(), Outbox::rows(), 'no share for contact messages: not kept' );
	}

	public function test_the_table_version_is_written_only_once_the_table_exists_and_an_upgrade_keeps_waiting_mail() {
		global $wpdb;
		$table = Outbox::table();
		$wpdb->query( "DROP TABLE IF EXISTS $table" ); // phpcs:ignore WordPress.DB
		delete_option( Outbox::VERSION_OPTION );
		$fail = static function () {
			return array();
		};
		add_filter( 'dbdelta_create_queries', $fail );
		try {
			$this->assertFalse( Outbox::maybe_install(), 'the table could not be created' );
		} finally {
			remove_filter( 'dbdelta_create_queries', $fail );
		}
		$this->assertFalse( get_option( Outbox::VERSION_OPTION ), 'so the next call tries again' );

		// Version 1's table, with a mail waiting in it, as the previous release left it.
		$wpdb->query( "CREATE TABLE $table (id bigint(20) unsigned NOT NULL AUTO_INCREMENT, created_at bigint(20) unsigned NOT NULL, next_try bigint(20) unsigned NOT NULL, claimed_until bigint(20) unsigned NOT NULL DEFAULT 0, tries int(10) unsigned NOT NULL DEFAULT 0, state varchar(10) NOT NULL DEFAULT 'waiting', recipient varchar(320) NOT NULL DEFAULT '', subject text NOT NULL, message longtext NOT NULL, bytes bigint(20) unsigned NOT NULL DEFAULT 0, last_error text NOT NULL, PRIMARY KEY  (id), KEY state_next (state,next_try)) " . $wpdb->get_charset_collate() ); // phpcs:ignore WordPress.DB
		$wpdb->insert( $table, array( 'created_at' => time(), 'next_try' => time(), 'recipient' => 'old@example.com', 'subject' => 'Old', 'message' => '{"to":"old@example.com","subject":"Old","content":"x"}', 'last_error' => 'HTTP 503' ) ); // phpcs:ignore WordPress.DB
		update_option( Outbox::VERSION_OPTION, 1 );

		$this->assertTrue( Outbox::maybe_install() );
		$this->assertSame( Outbox::DB_VERSION, (int) get_option( Outbox::VERSION_OPTION ) );
		$row = Outbox::rows()[0];
		$this->assertSame( array( 'old@example.com', Outbox::KIND_SITE, Outbox::WAITING ), array( $row['recipient'], $row['kind'], $row['state'] ) );
		$this->assertSame( 1, Outbox_Sender::run()['sent'] );
	}

	public function test_deactivating_with_mail_waiting_warns_the_owner_and_reactivating_resumes_delivery() {
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		$this->assertTrue( wp_mail( 'ann@example.com', "Waiting {$this->marker}", 'x' ) );
		wp_set_current_user( 1 );
		ob_start();
		\Sitebeam\Admin\Deactivation_Warning::action_after_plugin_row( 'sitebeam/sitebeam.php' );
		$row = (string) ob_get_clean();
		$this->assertStringContainsString( '1 mail waits in the Sitebeam outbox', $row );
		$this->assertStringContainsString( 'Deactivating Sitebeam stops its delivery', $row );

		deactivate_plugins( 'sitebeam/sitebeam.php' );
		try {
			foreach ( array( Outbox_Sender::HOOK, Outbox_Sender::WATCH_HOOK ) as $hook ) {
				$this->assertFalse( wp_next_scheduled( $hook ), "no $hook event left to call a hook that no longer exists" );
			}
			$this->assertCount( 1, Outbox::rows(), 'the mail stays' );
		} finally {
			$this->set_settings( array( 'api_url' => Stub::url() ) );
			$this->assertNull( activate_plugin( 'sitebeam/sitebeam.php' ) );
			wp_set_current_user( 0 );
		}
		$this->assertNotFalse( wp_next_scheduled( Outbox_Sender::HOOK ) );
		$this->system_cron();
		$this->assertSame( array( 'ann@example.com' ), array_column( $this->mine(), 'to' ), 'the next cron run delivered it' );
		$this->assertSame( array(), Outbox::rows() );
	}

	/**
	 * The instance fails every mail holding "poison" (a 500: that mail's own fault), and with $outage every mail
	 * holding "outage" (a 503: the instance is down), this test's own mail only.
	 *
	 * @param bool $outage Whether the outage goes on.
	 */
	private function poison( $outage ) {
		$faults = array(
			array(
				'status'        => 500,
				'body_contains' => "poison {$this->marker}",
			),
		);
		if ( $outage ) {
			$faults[] = array(
				'status'        => 503,
				'body_contains' => "outage {$this->marker}",
			);
		}
		Stub::faults( ...$faults );
	}

	/**
	 * Keeps $count mails while the instance is down, then lets their backoff grow to its hour.
	 *
	 * @param int $count How many.
	 */
	private function keep_during_outage( $count ) {
		global $wpdb;
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		for ( $i = 1; $i <= $count; $i++ ) {
			$this->assertTrue( wp_mail( "backlog$i@example.com", "Backlog $i {$this->marker}", 'x' ) );
		}
		$wpdb->query( $wpdb->prepare( 'UPDATE ' . Outbox::table() . ' SET tries = 8, next_try = %d', time() + Contract::OUTBOX_MAX_RETRY_S ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * A new user to reset the password of.
	 */
	private function user() {
		$login = 'u' . substr( md5( $this->marker ), 0, 10 );
		$id    = wp_insert_user(
			array(
				'user_login' => $login,
				'user_email' => "$login@example.com",
				'user_pass'  => wp_generate_password(),
			)
		);
		$this->assertIsInt( $id );
		return get_userdata( $id );
	}

	/**
	 * Posts the contact form (this test's rate limit and marker permitting).
	 *
	 * @param array<string, string> $changes Fields over a valid post.
	 * @return \WP_REST_Response
	 */
	private function post_contact( array $changes ) {
		$request = new WP_REST_Request( 'POST', '/sitebeam/v1/contact' );
		$request->set_header( 'content-type', 'application/json' );
		$request->set_body( (string) wp_json_encode( self::contact_post( $changes + array( 'message' => "Hello {$this->marker}" ) ) ) );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * The stub's messages of this test, oldest first.
	 *
	 * @return array<int, array<string, mixed>>
	 */
	private function mine() {
		return array_values(
			array_filter(
				Stub::messages(),
				function ( $message ) {
					return false !== strpos( (string) wp_json_encode( $message ), $this->marker );
				}
			)
		);
	}

	/**
	 * The stub's messages to one address.
	 *
	 * @param string $address The address.
	 * @return array<int, array<string, mixed>>
	 */
	private function to( $address ) {
		return array_values(
			array_filter(
				Stub::messages(),
				static function ( $message ) use ( $address ) {
					return $address === $message['to'];
				}
			)
		);
	}

	/**
	 * Starts a PHP script of the test site in a process of its own.
	 *
	 * @param string $script The script.
	 * @return array{process: resource}
	 */
	private function php( $script ) {
		$process = proc_open( array( PHP_BINARY, $script ), array( 1 => array( 'file', '/dev/null', 'w' ), 2 => array( 'file', '/dev/null', 'w' ) ), $pipes ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- real processes are the point.
		$this->assertIsResource( $process );
		return array( 'process' => $process );
	}

	/**
	 * Runs wp-cron.php once in a process of its own, as a system cron does, and waits for it to end.
	 */
	private function system_cron() {
		proc_close( $this->php( __DIR__ . '/support/wp-cron.php' )['process'] );
		// That process changed the options (cron events, the delivery state) this one has read.
		wp_cache_flush();
	}

	/**
	 * Polls until $done is true (an event this test cannot subscribe to), failing after $seconds.
	 *
	 * @param callable $done    The condition.
	 * @param int      $seconds At most this long.
	 * @param string   $what    What is waited for.
	 */
	private function wait_until( callable $done, $seconds, $what ) {
		$ends = microtime( true ) + $seconds;
		while ( ! $done() ) {
			if ( microtime( true ) > $ends ) {
				$this->fail( "$what did not happen within $seconds s" );
			}
			usleep( 100000 );
		}
	}

	/**
	 * @param mixed  $actual A value.
	 * @param string $code   The error code expected.
	 */
	private function assertWPError( $actual, $code ) {
		$this->assertInstanceOf( \WP_Error::class, $actual );
		$this->assertSame( $code, $actual->get_error_code() );
	}
}
