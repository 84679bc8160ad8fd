<?php
/**
 * Sends what waits in the outbox: from WP-Cron (a run at the next try, and a watch every minute while mail waits),
 * WP-CLI, a drain when the instance comes back, or the owner's Send now on any one mail.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Contract;
use Sitebeam\Settings;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Sends what waits in the outbox, as Postfix's queue manager and Action Scheduler's queue runner do.
 *
 * - No mail holds another: a run takes every due row in turn and moves on past one that fails again; it stops early
 *   only after Contract::OUTBOX_STOP_AFTER_SAME_FAILURES passing failures of the same kind in a row (the instance is
 *   down, not the mail). Order is kept among the mail one run delivers.
 * - Fast recovery: while the instance is failing, a run tries one waiting mail before its time at most every
 *   Contract::OUTBOX_BREAKER_S seconds; the first success after a failure makes every waiting mail due and starts a
 *   drain at once (a WP-Cron run spawned now, or this request after its answer where the server allows it).
 * - Nothing stuck after a crash: the watch (a recurring WP-Cron event, every minute while mail waits) is rescheduled by
 *   WP-Cron before it runs, so a sender killed mid-send, a fatal or a throwing listener cannot stop the outbox; the
 *   lock and each row's claim expire after LEASE_SECONDS (the lock renewed as the run goes), so a dead sender costs two
 *   minutes.
 * - After a 5xx, a 429 or a refused connection the instance did not take the mail, so it is sent once; after a
 *   time-out (or a 502/504, which a proxy may send after the instance took it) it may arrive twice.
 */
final class Outbox_Sender {

	const HOOK        = 'sitebeam_outbox_run';
	const WATCH_HOOK  = 'sitebeam_outbox_watch';
	const PURGE_HOOK  = 'sitebeam_outbox_purge';
	const SCHEDULE    = 'sitebeam_every_minute';
	const LOCK_OPTION = 'sitebeam_outbox_lock';

	/** When this site last made its waiting mail due because the instance came back (Delivery_State::recovered_at). */
	const DRAINED_OPTION = 'sitebeam_outbox_drained';

	/** The lock's and a claim's life: longer than any one send (at least twice the API time-out). */
	const LEASE_SECONDS = 120;

	/** The lock is renewed after a mail once this many seconds passed since it was last renewed. */
	const RENEW_AFTER_S = 5;

	/** Seconds a WP-Cron run sends for, so that it ends within PHP's usual time limit. */
	const CRON_BUDGET = 40;

	/**
	 * Whether this process is running the outbox (a drain it starts needs no other runner).
	 *
	 * @var bool
	 */
	private static $running = false;

	/**
	 * The watch's schedule: every minute, as Action Scheduler's queue runner.
	 *
	 * @param array<string, array{interval: int, display: string}> $schedules WP-Cron's schedules.
	 * @return array<string, array{interval: int, display: string}>
	 */
	public static function filter_cron_schedules( $schedules ) {
		$schedules[ self::SCHEDULE ] = array(
			'interval' => MINUTE_IN_SECONDS,
			'display'  => __( 'Every minute (Sitebeam outbox)', 'sitebeam' ),
		);
		return $schedules;
	}

	/**
	 * The cron hooks' handler (the run at the next try, and the watch).
	 */
	public static function action_run() {
		self::run( self::CRON_BUDGET );
	}

	/**
	 * The daily purge of failed mail past its retention; it ends itself once no failed mail is left.
	 */
	public static function action_purge() {
		Outbox::purge_failed();
		if ( 0 === Outbox::summary()['failed'] ) {
			wp_clear_scheduled_hook( self::PURGE_HOOK );
		}
	}

	/**
	 * Makes sure mail kept for $at is sent: a run then when it is within the next minute, and the watch every minute.
	 *
	 * @param int $at Unix time of the next try.
	 */
	public static function keep_watch( $at ) {
		if ( $at < time() + MINUTE_IN_SECONDS ) {
			self::schedule( $at );
		}
		if ( false === wp_next_scheduled( self::WATCH_HOOK ) ) {
			wp_schedule_event( time() + MINUTE_IN_SECONDS, self::SCHEDULE, self::WATCH_HOOK );
		}
	}

	/**
	 * Makes sure a cron run comes no later than $at.
	 *
	 * @param int $at Unix time.
	 */
	public static function schedule( $at ) {
		$next = wp_next_scheduled( self::HOOK );
		if ( false !== $next && $next <= $at ) {
			return;
		}
		if ( false !== $next ) {
			wp_unschedule_event( $next, self::HOOK );
		}
		wp_schedule_single_event( max( time(), (int) $at ), self::HOOK );
	}

	/**
	 * The instance is back: every waiting mail is due, and a run starts now. Where the server can answer first
	 * (PHP-FPM, LiteSpeed) this request sends after its answer; a cron run sends it after the hook; elsewhere a WP-Cron
	 * run is spawned now (WP-Cron spawns at most once a minute: then the next cron run, within that minute, sends).
	 */
	public static function start_drain() {
		Outbox::make_waiting_due();
		update_option( self::DRAINED_OPTION, time(), false );
		if ( 0 === Outbox::summary()['waiting'] ) {
			return;
		}
		self::schedule( time() );
		if ( self::$running ) {
			return;
		}
		$finishes = function_exists( 'fastcgi_finish_request' ) || function_exists( 'litespeed_finish_request' );
		if ( wp_doing_cron() || ( $finishes && 'cli' !== PHP_SAPI ) ) {
			if ( false === has_action( 'shutdown', array( self::class, 'action_drain_at_shutdown' ) ) ) {
				add_action( 'shutdown', array( self::class, 'action_drain_at_shutdown' ), PHP_INT_MAX );
			}
			return;
		}
		spawn_cron();
	}

	/**
	 * Sends the outbox once this request's answer is out (or at the end of a cron run).
	 */
	public static function action_drain_at_shutdown() {
		if ( function_exists( 'fastcgi_finish_request' ) ) {
			fastcgi_finish_request();
		} elseif ( function_exists( 'litespeed_finish_request' ) ) {
			litespeed_finish_request();
		}
		self::run( self::CRON_BUDGET );
	}

	/**
	 * On activation: mail that waited while the plugin was off is due, and sent at the next cron run.
	 */
	public static function resume() {
		if ( Outbox::maybe_install() && Outbox::summary()['waiting'] > 0 ) {
			Outbox::make_waiting_due();
			self::keep_watch( time() );
		}
	}

	/**
	 * On deactivation: no event is left to call a hook that no longer exists; the mail stays in the table.
	 */
	public static function deactivate() {
		foreach ( array( self::HOOK, self::WATCH_HOOK, self::PURGE_HOOK ) as $hook ) {
			wp_clear_scheduled_hook( $hook );
		}
	}

	/**
	 * Sends the due mail, oldest first, moving on past a mail that fails again, until none is due, the instance is
	 * down (several failures of one kind in a row), or the budget is spent.
	 *
	 * @param int|null $budget Seconds to send for; null: as long as mail is due.
	 * @return array{locked: bool, sent: int, failed: int, waiting: int} What this run did; locked when another
	 *         sender holds the outbox (this run sent nothing).
	 */
	public static function run( $budget = self::CRON_BUDGET ) {
		$done = array(
			'locked'  => false,
			'sent'    => 0,
			'failed'  => 0,
			'waiting' => 0,
		);
		if ( ! Outbox::maybe_install() ) {
			return $done;
		}
		$lock = self::lock();
		if ( false === $lock ) {
			$done['locked'] = true;
			return $done;
		}
		self::$running = true;
		$ends          = null === $budget ? null : microtime( true ) + $budget;
		try {
			self::release_stale_claims();
			$done['failed'] += self::give_up_expired();
			Outbox::purge_failed();
			$state = Delivery_State::get();
			if ( $state['recovered_at'] > (int) get_option( self::DRAINED_OPTION, 0 ) ) {
				// The instance came back while another site (or process) was sending: this site's mail is due too.
				Outbox::make_waiting_due();
				update_option( self::DRAINED_OPTION, time(), false );
			}
			self::send_due( $done, $lock, $ends );
		} finally {
			self::$running = false;
			if ( false !== $lock ) {
				self::unlock( $lock );
			}
		}
		self::reschedule();
		return $done;
	}

	/**
	 * The loop of a run.
	 *
	 * @param array<string, int|bool> $done What the run did, counted here.
	 * @param string|false            $lock The lock's value, renewed as the run goes.
	 * @param float|null              $ends When the budget ends.
	 */
	private static function send_due( array &$done, &$lock, $ends ) {
		$client   = Api_Client::from_settings();
		$started  = time();
		$after    = 0;
		$same     = '';
		$in_a_row = 0;
		$drained  = false;
		$queue    = self::due_ids( 0 );
		$probe    = array() === $queue && Delivery_State::wants_probe() ? self::probe_candidate() : null;
		while ( false !== $lock && ( null === $ends || microtime( true ) < $ends ) ) {
			$queue = array() === $queue ? self::due_ids( $after ) : $queue;
			$id    = $probe ?? array_shift( $queue );
			if ( null === $id ) {
				break;
			}
			$row   = self::claim( $id, null !== $probe );
			$probe = null;
			$after = max( $after, $id );
			if ( null === $row ) {
				continue;
			}
			$sent = self::send( $client, $row );
			++$done[ $sent['outcome'] ];
			if ( $sent['recovered'] && ! $drained ) {
				Outbox::make_waiting_due( $started );
				update_option( self::DRAINED_OPTION, time(), false );
				$drained = true;
				$after   = 0;
				$queue   = array();
			}
			$in_a_row = '' !== $sent['kind'] && $sent['kind'] === $same ? $in_a_row + 1 : (int) ( '' !== $sent['kind'] );
			$same     = $sent['kind'];
			if ( $in_a_row >= Contract::OUTBOX_STOP_AFTER_SAME_FAILURES ) {
				Delivery_State::record_outage();
				break;
			}
			$lock = self::renew( $lock );
		}
	}

	/**
	 * Sends one mail now, whatever else waits and whatever its next try: the owner's Send now.
	 *
	 * @param int  $id                  The row.
	 * @param bool $again_after_refusal Whether a mail the instance refused for good is sent again (the owner
	 *                                  confirmed it); otherwise such a mail is left as it is.
	 * @return array{outcome: string, detail: string} outcome: 'sent', 'waiting' (a passing failure: tried again
	 *         later), 'failed' (refused for good), 'busy' (another sender holds it), 'gone' (no such mail) or
	 *         'needs_confirmation' (refused for good before: nothing sent).
	 */
	public static function send_one( $id, $again_after_refusal = false ) {
		global $wpdb;
		$id = (int) $id;
		if ( ! Outbox::maybe_install() ) {
			return self::outcome( 'gone', __( 'The outbox table is missing: nothing was sent.', 'sitebeam' ) );
		}
		$table = Outbox::table();
		$row   = $wpdb->get_row( $wpdb->prepare( "SELECT state, failure, claimed_until FROM $table WHERE id = %d", $id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( null === $row ) {
			return self::outcome( 'gone', __( 'That mail is no longer in the outbox: it was sent or deleted.', 'sitebeam' ) );
		}
		if ( Outbox::FAILED === $row['state'] && Outbox::FAILURE_REFUSED === $row['failure'] && ! $again_after_refusal ) {
			return self::outcome( 'needs_confirmation', __( 'The instance refused this mail for good: confirm to send it again.', 'sitebeam' ) );
		}
		// A failed mail, or one past its lifetime, starts a new lifetime: the owner asked for it.
		$now     = time();
		$claimed = $wpdb->query( $wpdb->prepare( "UPDATE $table SET created_at = IF(state = %s OR created_at <= %d, %d, created_at), state = %s, failure = '', claimed_until = %d, tries = tries + 1, last_try = %d WHERE id = %d AND (state <> %s OR claimed_until < %d)", Outbox::FAILED, $now - self::lifetime(), $now, Outbox::SENDING, $now + self::lease(), $now, $id, Outbox::SENDING, $now ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( 1 !== $claimed ) {
			return self::outcome( 'busy', __( 'Another process is sending this mail right now: look again in a moment.', 'sitebeam' ) );
		}
		$sent = self::send( Api_Client::from_settings(), self::row( $id ) );
		if ( $sent['recovered'] ) {
			self::start_drain();
		}
		self::reschedule();
		return self::outcome( $sent['outcome'], $sent['detail'] );
	}

	/**
	 * One of send_one()'s answers.
	 *
	 * @param string $outcome What happened.
	 * @param string $detail  The reason in words.
	 * @return array{outcome: string, detail: string}
	 */
	private static function outcome( $outcome, $detail ) {
		return array(
			'outcome' => $outcome,
			'detail'  => $detail,
		);
	}

	/**
	 * Sends one claimed row and records the outcome.
	 *
	 * @param Api_Client           $client The instance.
	 * @param array<string, mixed> $row    The row, message included.
	 * @return array{outcome: string, kind: string, recovered: bool, detail: string} outcome 'sent', 'failed' (refused
	 *         for good) or 'waiting' (a passing failure: tried again later); kind names a passing failure ('' else);
	 *         recovered when this success ended a time the instance was failing.
	 */
	private static function send( Api_Client $client, array $row ) {
		global $wpdb;
		$table   = Outbox::table();
		$message = json_decode( (string) $row['message'], true );
		$result  = is_array( $message ) ? $client->send_email( $message )
			: new WP_Error( 'sitebeam_outbox_unreadable', __( 'The kept mail could not be read back.', 'sitebeam' ) );
		$sent    = array(
			'outcome'   => 'sent',
			'kind'      => '',
			'recovered' => false,
			'detail'    => __( 'Sent.', 'sitebeam' ),
		);
		if ( ! is_wp_error( $result ) ) {
			Outbox::delete_sent( (int) $row['id'] );
			Send_Log::record( array( $row['recipient'] ), $row['subject'], Send_Log::SENT );
			$sent['recovered'] = Delivery_State::record_success();
			self::fire_succeeded( $row );
			return $sent;
		}
		$detail  = Api_Messages::describe( $result );
		$history = Outbox::history_with( (string) $row['history'], $result );
		// Not configured, or a URL WordPress refuses: the owner is expected to fix the settings, and the mail waits.
		$settings = in_array( $result->get_error_code(), array( Api_Client::ERROR_NOT_CONFIGURED, Api_Client::ERROR_URL_REFUSED ), true );
		if ( Outbox::is_passing( $result ) || $settings ) {
			if ( ! $settings ) {
				Delivery_State::record_failure( $result );
			}
			$retry_after = (int) ( ( (array) $result->get_error_data() )['retry_after'] ?? 0 );
			$next_try    = time() + Outbox::delay( (int) $row['tries'], $retry_after );
			$wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, next_try = %d, claimed_until = 0, last_error = %s, history = %s WHERE id = %d", Outbox::WAITING, $next_try, $detail, $history, $row['id'] ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
			/* translators: 1: the failure in words, 2: a time span, e.g. "5 mins". */
			$sent['detail']  = sprintf( __( 'The instance could not take it (%1$s): it waits in the outbox and is tried again in %2$s.', 'sitebeam' ), $detail, human_time_diff( time(), $next_try ) );
			$sent['outcome'] = 'waiting';
			$sent['kind']    = (int) ( ( (array) $result->get_error_data() )['status'] ?? 0 ) . ':' . $result->get_error_code();
			return $sent;
		}
		self::give_up( $row, Outbox::FAILURE_REFUSED, $detail, $result->get_error_code(), $history );
		/* translators: %s: the refusal in words. */
		$sent['detail']  = sprintf( __( 'The instance refused it for good: %s', 'sitebeam' ), $detail );
		$sent['outcome'] = 'failed';
		return $sent;
	}

	/**
	 * Fires wp_mail_succeeded as wp_mail() does, once the last kept copy of a wp_mail() call is delivered and none of
	 * its recipients failed, with the arguments wp_mail() was given.
	 *
	 * @param array<string, mixed> $row The delivered row.
	 */
	private static function fire_succeeded( array $row ) {
		$atts = json_decode( (string) $row['wp_mail'], true );
		if ( '' === (string) $row['mail_group'] || ! is_array( $atts ) || Outbox::group_size( (string) $row['mail_group'] ) > 0 ) {
			return;
		}
		/** This action is documented in wp-includes/pluggable.php */
		do_action( 'wp_mail_succeeded', $atts ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.
	}

	/**
	 * Gives a row up: failed, kept for the owner to see, logged, and wp_mail_failed fired with the mail as wp_mail()
	 * was given it.
	 *
	 * @param array<string, mixed> $row     The row, message included.
	 * @param string               $failure Outbox::FAILURE_REFUSED or Outbox::FAILURE_EXPIRED.
	 * @param string               $detail  Why, in words.
	 * @param string               $code    The error code.
	 * @param string|null          $history The row's history with its last try; null: unchanged.
	 * @return bool Whether this process gave it up (another may have first).
	 */
	private static function give_up( array $row, $failure, $detail, $code, $history = null ) {
		global $wpdb;
		$table   = Outbox::table();
		$history = $history ?? (string) $row['history'];
		$changed = $wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, failure = %s, claimed_until = 0, next_try = %d, last_error = %s, history = %s WHERE id = %d AND state <> %s", Outbox::FAILED, $failure, time(), $detail, $history, $row['id'], Outbox::FAILED ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( 1 !== $changed ) {
			return false;
		}
		Send_Log::record( array( $row['recipient'] ), $row['subject'], Send_Log::FAILED, $detail );
		if ( false === wp_next_scheduled( self::PURGE_HOOK ) ) {
			wp_schedule_event( time() + DAY_IN_SECONDS, 'daily', self::PURGE_HOOK );
		}
		$atts    = json_decode( (string) $row['wp_mail'], true );
		$message = json_decode( (string) $row['message'], true );
		if ( ! is_array( $atts ) ) {
			$atts = array(
				'to'          => array( (string) $row['recipient'] ),
				'subject'     => (string) $row['subject'],
				'message'     => (string) ( is_array( $message ) ? $message[ Contract::EMAIL_FIELD_CONTENT ] ?? '' : '' ),
				'headers'     => array(),
				'attachments' => array(),
			);
		}
		Api_Mailer::fire_mail_failed( $detail, $atts, $code, array( (string) $row['recipient'] ), array( 'sitebeam_outbox_id' => (int) $row['id'] ) );
		return true;
	}

	/**
	 * Gives up the waiting mail past its lifetime (setting `outbox_lifetime`, hours) before any more try.
	 *
	 * @return int How many were given up.
	 */
	private static function give_up_expired() {
		global $wpdb;
		$table = Outbox::table();
		$hours = self::lifetime() / HOUR_IN_SECONDS;
		$rows  = (array) $wpdb->get_results( $wpdb->prepare( "SELECT * FROM $table WHERE state = %s AND created_at <= %d ORDER BY id LIMIT 100", Outbox::WAITING, time() - self::lifetime() ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		$count = 0;
		foreach ( $rows as $row ) {
			$last = '' !== (string) $row['last_error'] ? (string) $row['last_error'] : __( 'never tried', 'sitebeam' );
			/* translators: 1: hours, 2: the last error. */
			$detail = sprintf( __( 'Given up after %1$s hours: %2$s', 'sitebeam' ), number_format_i18n( $hours ), $last );
			$count += (int) self::give_up( $row, Outbox::FAILURE_EXPIRED, $detail, 'sitebeam_outbox_expired' );
		}
		return $count;
	}

	/**
	 * The next due rows after $after (by id): the run claims each in turn.
	 *
	 * @param int $after Rows up to this id were handled by this run.
	 * @return int[]
	 */
	private static function due_ids( $after ) {
		global $wpdb;
		$table = Outbox::table();
		return array_map( 'intval', $wpdb->get_col( $wpdb->prepare( "SELECT id FROM $table WHERE state = %s AND next_try <= %d AND id > %d ORDER BY id LIMIT 50", Outbox::WAITING, time(), $after ) ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * The waiting row to try before its time to learn whether the instance is back: the one due soonest.
	 */
	private static function probe_candidate() {
		global $wpdb;
		$table = Outbox::table();
		$id    = $wpdb->get_var( $wpdb->prepare( "SELECT id FROM $table WHERE state = %s ORDER BY next_try, id LIMIT 1", Outbox::WAITING ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return null === $id ? null : (int) $id;
	}

	/**
	 * Claims a waiting row for this sender: only one UPDATE can, so no mail is sent twice by two senders. A row past
	 * its lifetime is left for give_up_expired().
	 *
	 * @param int  $id       The row.
	 * @param bool $any_time Whether it may be claimed before its next try (a probe).
	 * @return array<string, mixed>|null The row, message included; null when it could not be claimed.
	 */
	private static function claim( $id, $any_time ) {
		global $wpdb;
		$table   = Outbox::table();
		$now     = time();
		$claimed = $wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, claimed_until = %d, tries = tries + 1, last_try = %d WHERE id = %d AND state = %s AND next_try <= %d AND created_at > %d", Outbox::SENDING, $now + self::lease(), $now, $id, Outbox::WAITING, $any_time ? PHP_INT_MAX : $now, $now - self::lifetime() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return 1 === $claimed ? self::row( $id ) : null;
	}

	/**
	 * One row, message included.
	 *
	 * @param int $id The row.
	 * @return array<string, mixed>|null
	 */
	private static function row( $id ) {
		global $wpdb;
		$table = Outbox::table();
		return $wpdb->get_row( $wpdb->prepare( "SELECT * FROM $table WHERE id = %d", $id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * Keeps the cron events to what waits: a run at the next try within the minute and the watch while mail waits;
	 * neither once the outbox holds no unsent mail.
	 */
	private static function reschedule() {
		global $wpdb;
		$table = Outbox::table();
		$next  = $wpdb->get_var( $wpdb->prepare( "SELECT MIN(IF(state = %s, claimed_until, next_try)) FROM $table WHERE state <> %s", Outbox::SENDING, Outbox::FAILED ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( null !== $next ) {
			self::keep_watch( (int) $next );
			return;
		}
		wp_clear_scheduled_hook( self::WATCH_HOOK );
		wp_clear_scheduled_hook( self::HOOK );
		// Mail kept while the events were cleared keeps its watch.
		if ( Outbox::summary()['waiting'] > 0 ) {
			self::keep_watch( time() );
		}
	}

	/**
	 * Rows claimed by a sender that died are waiting again (and may so be sent twice: at least once).
	 */
	private static function release_stale_claims() {
		global $wpdb;
		$table = Outbox::table();
		$wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, claimed_until = 0 WHERE state = %s AND claimed_until < %d", Outbox::WAITING, Outbox::SENDING, time() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * Seconds a mail is tried before it is given up.
	 */
	private static function lifetime() {
		return (int) ( max( 1, (float) Settings::get()['outbox_lifetime'] ) * HOUR_IN_SECONDS );
	}

	/**
	 * The lock's and a claim's life: LEASE_SECONDS, or twice the API time-out when that is longer.
	 */
	private static function lease() {
		return max( self::LEASE_SECONDS, 2 * (int) ceil( Api_Client::timeout() ) );
	}

	/**
	 * Takes the lock: an options row only one INSERT can create (the option name is the table's unique key), or one
	 * whose expiry has passed, taken over by a compare-and-set.
	 *
	 * @return string|false The lock's value, which names this sender and its expiry; false when another holds it.
	 */
	private static function lock() {
		global $wpdb;
		$token    = self::token();
		$inserted = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'no')", self::LOCK_OPTION, $token ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- an atomic lock: the Options API cannot insert only when absent.
		if ( 1 === $inserted ) {
			return $token;
		}
		$held = (string) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::LOCK_OPTION ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- read past the options cache.
		if ( '' === $held || (int) $held > time() ) {
			return false;
		}
		return self::swap( $held, $token ) ? $token : false;
	}

	/**
	 * Extends the lock this sender holds, checked after each mail (a heartbeat): renewed once RENEW_AFTER_S seconds
	 * passed since it was taken or last renewed, so it never has less than the lease minus that left when a send
	 * starts, and a fast drain does not write the lock row once per mail.
	 *
	 * @param string $lock The lock's value.
	 * @return string|false The new value, or false when the lock was lost.
	 */
	private static function renew( $lock ) {
		if ( (int) $lock - self::lease() + self::RENEW_AFTER_S > time() ) {
			return $lock;
		}
		$token = self::token();
		return self::swap( $lock, $token ) ? $token : false;
	}

	/**
	 * Replaces the lock's value only if it still is $from.
	 *
	 * @param string $from The value expected.
	 * @param string $to   The new value.
	 */
	private static function swap( $from, $to ) {
		global $wpdb;
		return 1 === $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $to, self::LOCK_OPTION, $from ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- compare-and-set on the lock row.
	}

	/**
	 * Releases the lock, if this sender still holds it.
	 *
	 * @param string $lock The lock's value.
	 */
	private static function unlock( $lock ) {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", self::LOCK_OPTION, $lock ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the lock row.
	}

	/**
	 * A new lock value: its expiry, then a random part that tells this sender from any other.
	 */
	private static function token() {
		return ( time() + self::lease() ) . ':' . wp_generate_password( 16, false );
	}
}
