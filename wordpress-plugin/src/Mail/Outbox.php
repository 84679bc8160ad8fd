<?php
/**
 * The outbox: mail the instance could not take for a passing reason, kept in the site's own table until it is sent.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Api_Client;
use Sitebeam\Contract;
use Sitebeam\Settings;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The outbox: mail the instance could not take for a passing reason, kept in the site's own table until it is sent.
 *
 * One row is one API message to one recipient, stored as the exact payload first mapped (attachment included), so
 * what is sent later is what would have been sent at once. A row is `waiting`, `sending` (claimed by the one sender)
 * or `failed` (given up, kept for the owner to see); a delivered row is deleted.
 */
final class Outbox {

	const TABLE          = 'sitebeam_outbox';
	const DB_VERSION     = 1;
	const VERSION_OPTION = 'sitebeam_outbox_db_version';

	const WAITING = 'waiting';
	const SENDING = 'sending';
	const FAILED  = 'failed';

	const ERROR_FULL = 'sitebeam_outbox_full';

	/** The first retry comes within a minute; later ones double, up to an hour apart. */
	const FIRST_DELAY = 30;
	const MAX_DELAY   = HOUR_IN_SECONDS;

	/**
	 * The table of the current site (one per site on multisite: the site's own prefix).
	 */
	public static function table() {
		global $wpdb;
		return $wpdb->prefix . self::TABLE;
	}

	/**
	 * Creates or upgrades the table when this site's version is older than the code's.
	 */
	public static function maybe_install() {
		if ( (int) get_option( self::VERSION_OPTION, 0 ) >= self::DB_VERSION ) {
			return;
		}
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$table   = self::table();
		$charset = $wpdb->get_charset_collate();
		dbDelta(
			"CREATE TABLE $table (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  created_at bigint(20) unsigned NOT NULL,
  next_try bigint(20) unsigned NOT NULL,
  claimed_until bigint(20) unsigned NOT NULL DEFAULT 0,
  tries int(10) unsigned NOT NULL DEFAULT 0,
  state varchar(10) NOT NULL DEFAULT 'waiting',
  recipient varchar(320) NOT NULL DEFAULT '',
  subject text NOT NULL,
  message longtext NOT NULL,
  bytes bigint(20) unsigned NOT NULL DEFAULT 0,
  last_error text NOT NULL,
  PRIMARY KEY  (id),
  KEY state_next (state,next_try)
) $charset;"
		);
		update_option( self::VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * Whether an API error is a passing one, after which the same message may succeed: the contract's passing statuses
	 * (no answer, 408, 429, 5xx). Anything else (400, 401, 403, 413, 422, an answer that is not the API's) is for good.
	 *
	 * @param WP_Error $error From Api_Client.
	 */
	public static function is_passing( WP_Error $error ) {
		if ( Api_Client::ERROR_NOT_CONFIGURED === $error->get_error_code() ) {
			return false;
		}
		$status = (int) ( ( (array) $error->get_error_data() )['status'] ?? -1 );
		return $status >= 0 && Contract::is_passing_status( $status );
	}

	/**
	 * Sends one API message, or keeps it for later when the instance fails for a passing reason.
	 *
	 * While older mail waits for a try that is not due yet, a new message waits behind it without a try of its own:
	 * the instance is down, and mail keeps its order.
	 *
	 * @param Api_Client           $client  The instance.
	 * @param array<string, mixed> $message One API message (one `to`).
	 * @return true|int|WP_Error True when sent, the row's id when kept, or why it was neither (refused for good, or
	 *                           the outbox full: the error then carries the instance's error in `api_error`).
	 */
	public static function send_or_keep( Api_Client $client, array $message ) {
		$backlog = self::due_head();
		if ( false === $backlog ) {
			$result = $client->send_email( $message );
			if ( ! is_wp_error( $result ) ) {
				return true;
			}
			if ( ! self::is_passing( $result ) ) {
				return $result;
			}
			$retry_after = (int) ( ( (array) $result->get_error_data() )['retry_after'] ?? 0 );
			$next_try    = time() + self::delay( 1, $retry_after );
			$tries       = 1;
			$why         = $result;
		} else {
			$next_try = $backlog;
			$tries    = 0;
			$why      = null;
		}
		$id = self::add( $message, $tries, $next_try, null === $why ? '' : \Sitebeam\Api_Messages::describe( $why ) );
		if ( is_wp_error( $id ) && null !== $why ) {
			$id->add_data( array( 'api_error' => $why ) );
		}
		return $id;
	}

	/**
	 * When the oldest waiting mail is next tried, while that is still to come; false when nothing waits or it is due.
	 *
	 * @return int|false
	 */
	private static function due_head() {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		$next  = $wpdb->get_var( $wpdb->prepare( "SELECT next_try FROM $table WHERE state IN (%s, %s) ORDER BY id LIMIT 1", self::WAITING, self::SENDING ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return null !== $next && (int) $next > time() ? (int) $next : false;
	}

	/**
	 * Keeps one message, unless the outbox is at its cap.
	 *
	 * @param array<string, mixed> $message  One API message.
	 * @param int                  $tries    Tries already made.
	 * @param int                  $next_try When to try next (Unix time).
	 * @param string               $error    The last error, in words.
	 * @return int|WP_Error The row's id.
	 */
	public static function add( array $message, $tries, $next_try, $error ) {
		global $wpdb;
		self::maybe_install();
		$json  = (string) wp_json_encode( $message );
		$bytes = strlen( $json );
		$table = self::table();
		$limit = self::limits();
		$used  = $wpdb->get_row( "SELECT COUNT(*) AS mails, COALESCE(SUM(bytes), 0) AS bytes FROM $table", ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( (int) $used['mails'] + 1 > $limit['mails'] || (int) $used['bytes'] + $bytes > $limit['bytes'] ) {
			return new WP_Error(
				self::ERROR_FULL,
				/* translators: 1: number of mails, 2: size in megabytes. */
				sprintf( __( 'The instance could not take the mail and the outbox is full (at most %1$d mails, %2$s MB): it was not kept. Send or delete the waiting mail under Tools → Sitebeam outbox.', 'sitebeam' ), $limit['mails'], number_format_i18n( $limit['bytes'] / MB_IN_BYTES, 1 ) )
			);
		}
		$inserted = $wpdb->insert( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the plugin's own table.
			$table,
			array(
				'created_at' => time(),
				'next_try'   => (int) $next_try,
				'tries'      => (int) $tries,
				'state'      => self::WAITING,
				'recipient'  => (string) ( $message[ Contract::EMAIL_FIELD_TO ] ?? '' ),
				'subject'    => (string) ( $message[ Contract::EMAIL_FIELD_SUBJECT ] ?? '' ),
				'message'    => $json,
				'bytes'      => $bytes,
				'last_error' => (string) $error,
			),
			array( '%d', '%d', '%d', '%s', '%s', '%s', '%s', '%d', '%s' )
		);
		if ( ! $inserted ) {
			return new WP_Error( self::ERROR_FULL, __( 'The instance could not take the mail and the outbox could not store it.', 'sitebeam' ) );
		}
		Outbox_Sender::schedule( (int) $next_try );
		return (int) $wpdb->insert_id;
	}

	/**
	 * The largest outbox the settings allow.
	 *
	 * @return array{mails: int, bytes: int}
	 */
	public static function limits() {
		$settings = Settings::get();
		return array(
			'mails' => max( 1, (int) $settings['outbox_max_mails'] ),
			'bytes' => (int) max( 1, (float) $settings['outbox_max_mb'] ) * MB_IN_BYTES,
		);
	}

	/**
	 * Seconds before try number $tries + 1: doubling from FIRST_DELAY up to MAX_DELAY, with jitter (half to all of
	 * it, so that sites sharing an instance do not come back at the same second), and never before Retry-After.
	 *
	 * @param int $tries       Tries made so far (at least 1).
	 * @param int $retry_after The instance's Retry-After, seconds, or 0.
	 */
	public static function delay( $tries, $retry_after = 0 ) {
		$base = (int) min( self::MAX_DELAY, self::FIRST_DELAY * 2 ** min( 20, max( 0, $tries - 1 ) ) );
		$wait = wp_rand( (int) ceil( $base / 2 ), $base );
		return max( $wait, min( (int) $retry_after, DAY_IN_SECONDS ) );
	}

	/**
	 * Rows for the owner: every waiting, sending and failed mail, oldest first, without the message itself.
	 *
	 * @param int $limit At most this many.
	 * @return array<int, array<string, mixed>>
	 */
	public static function rows( $limit = 200 ) {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		return (array) $wpdb->get_results( $wpdb->prepare( "SELECT id, created_at, next_try, tries, state, recipient, subject, bytes, last_error FROM $table ORDER BY id LIMIT %d", $limit ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * Counts by state, and since when the oldest unsent mail waits.
	 *
	 * @return array{waiting: int, failed: int, oldest: int|null}
	 */
	public static function summary() {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		$row   = $wpdb->get_row( $wpdb->prepare( "SELECT SUM(state <> %s) AS waiting, SUM(state = %s) AS failed, MIN(IF(state <> %s, created_at, NULL)) AS oldest FROM $table", self::FAILED, self::FAILED, self::FAILED ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return array(
			'waiting' => (int) ( $row['waiting'] ?? 0 ),
			'failed'  => (int) ( $row['failed'] ?? 0 ),
			'oldest'  => null === ( $row['oldest'] ?? null ) ? null : (int) $row['oldest'],
		);
	}

	/**
	 * Deletes one row.
	 *
	 * @param int $id Row id.
	 */
	public static function delete( $id ) {
		global $wpdb;
		self::maybe_install();
		return (bool) $wpdb->delete( self::table(), array( 'id' => (int) $id ), array( '%d' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the plugin's own table.
	}

	/**
	 * Makes waiting and failed mail due now, one row or all: the owner's Send now. A failed mail starts a new
	 * lifetime (MariaDB assigns left to right, so created_at is set while state still says failed).
	 *
	 * @param int|null $id One row, or null for all.
	 */
	public static function make_due( $id = null ) {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		$where = null === $id ? '' : $wpdb->prepare( ' AND id = %d', $id );
		$wpdb->query( $wpdb->prepare( "UPDATE $table SET created_at = IF(state = %s, %d, created_at), state = %s, next_try = %d WHERE state <> %s", self::FAILED, time(), self::WAITING, time(), self::SENDING ) . $where ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL -- the plugin's own table; $where is prepared above.
	}

	/**
	 * The rows whose recipient is an address (compared without case), for the privacy tools.
	 *
	 * @param string $address A bare address.
	 * @return array<int, array<string, mixed>>
	 */
	public static function rows_for( $address ) {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		$like  = '%' . $wpdb->esc_like( (string) $address ) . '%';
		$rows  = (array) $wpdb->get_results( $wpdb->prepare( "SELECT id, created_at, state, recipient, subject, message FROM $table WHERE recipient LIKE %s ORDER BY id", $like ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return array_values(
			array_filter(
				$rows,
				static function ( $row ) use ( $address ) {
					$bare = preg_match( '/<([^<>]+)>\s*$/', (string) $row['recipient'], $match ) ? $match[1] : (string) $row['recipient'];
					return 0 === strcasecmp( trim( $bare ), trim( (string) $address ) );
				}
			)
		);
	}
}
