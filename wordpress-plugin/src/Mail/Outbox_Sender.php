<?php
/**
 * Sends what waits in the outbox, oldest first, one sender at a time: from WP-Cron, WP-CLI or the owner's Send now.
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
 * Sends what waits in the outbox, oldest first, one sender at a time: from WP-Cron, WP-CLI or the owner's Send now.
 *
 * Safety, as Postfix's queue manager and Action Scheduler do it: a lock row that only one process can insert (with an
 * expiry, so a sender that died does not stop the outbox for good), and each row claimed before it is sent. After a
 * 5xx, a 429 or a refused connection the instance did not take the mail, so it is sent once; after a time-out it may
 * have, so it may arrive twice.
 */
final class Outbox_Sender {

	const HOOK        = 'sitebeam_outbox_run';
	const LOCK_OPTION = 'sitebeam_outbox_lock';

	/** Longer than a run's budget plus one request's time-out: a lock older than this belongs to a dead sender. */
	const LOCK_SECONDS = 600;

	/** A claimed row not finished by then is waiting again (its sender died mid-send). */
	const CLAIM_SECONDS = 300;

	/** Seconds a WP-Cron run sends for, so that it ends within PHP's usual time limit. */
	const CRON_BUDGET = 40;

	/**
	 * The cron hook's handler.
	 */
	public static function action_run() {
		self::run( self::CRON_BUDGET );
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
	 * Sends the due mail, oldest first, until none is due, the instance fails, or the budget is spent.
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
		Outbox::maybe_install();
		$lock = self::lock();
		if ( false === $lock ) {
			$done['locked'] = true;
			return $done;
		}
		$client = Api_Client::from_settings();
		$ends   = null === $budget ? null : microtime( true ) + $budget;
		try {
			self::release_stale_claims();
			while ( null === $ends || microtime( true ) < $ends ) {
				$row = self::claim_head();
				if ( null === $row ) {
					break;
				}
				$outcome = self::send( $client, $row );
				++$done[ $outcome ];
				if ( 'waiting' === $outcome ) {
					break;
				}
				$lock = self::renew( $lock );
				if ( false === $lock ) {
					break;
				}
			}
		} finally {
			if ( false !== $lock ) {
				self::unlock( $lock );
			}
		}
		$head = self::head();
		if ( null !== $head ) {
			self::schedule( (int) $head['next_try'] );
		}
		return $done;
	}

	/**
	 * Sends one claimed row and records the outcome.
	 *
	 * @param Api_Client           $client The instance.
	 * @param array<string, mixed> $row    The row, message included.
	 * @return string 'sent', 'failed' (given up) or 'waiting' (a passing failure: tried again later).
	 */
	private static function send( Api_Client $client, array $row ) {
		global $wpdb;
		$table   = Outbox::table();
		$message = json_decode( (string) $row['message'], true );
		$result  = is_array( $message ) ? $client->send_email( $message )
			: new WP_Error( 'sitebeam_outbox_unreadable', __( 'The kept mail could not be read back.', 'sitebeam' ) );
		if ( ! is_wp_error( $result ) ) {
			Outbox::delete( (int) $row['id'] );
			Send_Log::record( array( $row['recipient'] ), $row['subject'], Send_Log::SENT );
			return 'sent';
		}
		$detail   = Api_Messages::describe( $result );
		$lifetime = max( 1, (float) Settings::get()['outbox_lifetime'] ) * HOUR_IN_SECONDS;
		// Not configured is passing too: the owner is expected to fix the settings, and the mail waits for it.
		$passing = Outbox::is_passing( $result ) || Api_Client::ERROR_NOT_CONFIGURED === $result->get_error_code();
		if ( $passing && (int) $row['created_at'] + $lifetime > time() ) {
			$retry_after = (int) ( ( (array) $result->get_error_data() )['retry_after'] ?? 0 );
			$next_try    = time() + Outbox::delay( (int) $row['tries'], $retry_after );
			$wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, next_try = %d, claimed_until = 0, last_error = %s WHERE id = %d", Outbox::WAITING, $next_try, $detail, $row['id'] ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
			// The mail behind it waits as long: the instance is down for all of them, and the order is kept.
			$wpdb->query( $wpdb->prepare( "UPDATE $table SET next_try = GREATEST(next_try, %d) WHERE state = %s", $next_try, Outbox::WAITING ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
			return 'waiting';
		}
		if ( $passing ) {
			/* translators: 1: hours, 2: the last error. */
			$detail = sprintf( __( 'Given up after %1$s hours: %2$s', 'sitebeam' ), number_format_i18n( $lifetime / HOUR_IN_SECONDS ), $detail );
		}
		$wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, claimed_until = 0, last_error = %s WHERE id = %d", Outbox::FAILED, $detail, $row['id'] ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		Send_Log::record( array( $row['recipient'] ), $row['subject'], Send_Log::FAILED, $detail );
		$atts = array(
			'to'          => array( (string) $row['recipient'] ),
			'subject'     => (string) $row['subject'],
			'message'     => (string) ( $message[ Contract::EMAIL_FIELD_CONTENT ] ?? '' ),
			'headers'     => array(),
			'attachments' => array(),
		);
		Api_Mailer::fire_mail_failed( $detail, $atts, $result->get_error_code(), $atts['to'], array( 'sitebeam_outbox_id' => (int) $row['id'] ) );
		return 'failed';
	}

	/**
	 * The oldest unsent row, when it is due, claimed for this sender; null when none is due.
	 *
	 * Strictly the oldest: a younger mail never overtakes one that waits, so the order in which the site wrote its mail
	 * is the order in which it is delivered.
	 *
	 * @return array<string, mixed>|null
	 */
	private static function claim_head() {
		global $wpdb;
		$table = Outbox::table();
		$head  = self::head();
		if ( null === $head || (int) $head['next_try'] > time() ) {
			return null;
		}
		$claimed = $wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, claimed_until = %d, tries = tries + 1 WHERE id = %d AND state = %s", Outbox::SENDING, time() + self::CLAIM_SECONDS, $head['id'], Outbox::WAITING ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( 1 !== $claimed ) {
			return null;
		}
		return $wpdb->get_row( $wpdb->prepare( "SELECT * FROM $table WHERE id = %d", $head['id'] ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * The oldest waiting row (id and next try), or null.
	 *
	 * @return array{id: string, next_try: string}|null
	 */
	private static function head() {
		global $wpdb;
		$table = Outbox::table();
		return $wpdb->get_row( $wpdb->prepare( "SELECT id, next_try FROM $table WHERE state = %s ORDER BY id LIMIT 1", Outbox::WAITING ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
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
	 * Extends the lock this sender holds.
	 *
	 * @param string $lock The lock's value.
	 * @return string|false The new value, or false when the lock was lost.
	 */
	private static function renew( $lock ) {
		if ( (int) $lock - self::LOCK_SECONDS / 2 > time() ) {
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
		return ( time() + self::LOCK_SECONDS ) . ':' . wp_generate_password( 16, false );
	}
}
