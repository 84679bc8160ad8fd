<?php
/**
 * The outbox: mail the instance could not take for a passing reason, kept in the site's own table until it is sent.
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
 * The outbox: mail the instance could not take for a passing reason, kept in the site's own table until it is sent.
 *
 * One row is one API message to one recipient, stored as the exact payload first mapped (attachment included), so
 * what is sent later is what would have been sent at once. A row is `waiting`, `sending` (claimed by one sender) or
 * `failed` (given up, kept for the owner to see until the retention period ends); a delivered row is deleted.
 *
 * The rule, the same as the Drupal module's: new mail is tried at once, whatever waits (as Postfix does); mail that
 * waits is tried again when its backoff ends, and a run moves on past a mail that fails again, so no mail holds
 * another. Order is kept among the mail one run delivers, not across failures.
 *
 * Rows of the site's own mail (`site`, through wp_mail()) also keep wp_mail()'s arguments and the id shared by the
 * rows of one wp_mail() call, so that wp_mail_succeeded and wp_mail_failed fire with the mail as it was given. For a
 * failed row, next_try holds when it was given up (the retention period counts from it).
 */
final class Outbox {

	const TABLE          = 'sitebeam_outbox';
	const DB_VERSION     = 2;
	const VERSION_OPTION = 'sitebeam_outbox_db_version';

	const WAITING = 'waiting';
	const SENDING = 'sending';
	const FAILED  = 'failed';

	const KIND_SITE    = 'site';
	const KIND_CONTACT = 'contact';

	const FAILURE_REFUSED = 'refused';
	const FAILURE_EXPIRED = 'expired';

	const ERROR_FULL = 'sitebeam_outbox_full';

	/** Tries each row's history keeps, the newest. */
	const HISTORY_SIZE = 20;

	/**
	 * The table of the current site (one per site on multisite: the site's own prefix).
	 */
	public static function table() {
		global $wpdb;
		return $wpdb->prefix . self::TABLE;
	}

	/**
	 * Creates or upgrades the table when this site's version is older than the code's. The version is written only
	 * once the table has every column, so an install that failed (no CREATE right, a full disk) is tried again.
	 */
	public static function maybe_install() {
		if ( (int) get_option( self::VERSION_OPTION, 0 ) >= self::DB_VERSION ) {
			return true;
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
  kind varchar(10) NOT NULL DEFAULT 'site',
  failure varchar(10) NOT NULL DEFAULT '',
  last_try bigint(20) unsigned NOT NULL DEFAULT 0,
  recipient varchar(320) NOT NULL DEFAULT '',
  visitor varchar(320) NOT NULL DEFAULT '',
  subject text NOT NULL,
  message longtext NOT NULL,
  attachment varchar(255) NOT NULL DEFAULT '',
  bytes bigint(20) unsigned NOT NULL DEFAULT 0,
  last_error text NOT NULL,
  history text NOT NULL,
  mail_group varchar(32) NOT NULL DEFAULT '',
  wp_mail longtext NOT NULL,
  PRIMARY KEY  (id),
  KEY state_next (state,next_try),
  KEY kind_state (kind,state),
  KEY visitor (visitor(191)),
  KEY mail_group (mail_group)
) $charset;"
		);
		$suppressed = $wpdb->suppress_errors();
		$ready      = null !== $wpdb->get_var( $wpdb->prepare( "SHOW COLUMNS FROM $table LIKE %s", 'wp_mail' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- whether the plugin's own table is complete.
		$wpdb->suppress_errors( $suppressed );
		if ( $ready ) {
			update_option( self::VERSION_OPTION, self::DB_VERSION, true );
		}
		return $ready;
	}

	/**
	 * Whether an API error is a passing one, after which the same message may succeed: the contract's passing statuses
	 * (no answer, 408, 429, 5xx). Anything else (400, 401, 403, 413, 422, an answer that is not the API's, an instance
	 * URL WordPress refuses) is for good.
	 *
	 * @param WP_Error $error From Api_Client.
	 */
	public static function is_passing( WP_Error $error ) {
		if ( in_array( $error->get_error_code(), array( Api_Client::ERROR_NOT_CONFIGURED, Api_Client::ERROR_URL_REFUSED ), true ) ) {
			return false;
		}
		$status = (int) ( ( (array) $error->get_error_data() )['status'] ?? -1 );
		return $status >= 0 && Contract::is_passing_status( $status );
	}

	/**
	 * Sends one API message at once, or keeps it for later when the instance fails for a passing reason. Mail that
	 * waits never holds it back; only the circuit breaker does, for a few seconds after the instance did not answer.
	 *
	 * @param Api_Client           $client  The instance.
	 * @param array<string, mixed> $message One API message (one `to`).
	 * @param array<string, mixed> $meta    What the row keeps besides the message: `kind` (KIND_SITE by default),
	 *                                      `visitor` (a contact message's sender), `mail_group` and `wp_mail` (the
	 *                                      wp_mail() call it belongs to, and its arguments).
	 * @return true|int|WP_Error True when sent, the row's id when kept, or why it was neither (refused for good, or
	 *                           the outbox full: the error then carries the instance's error in `api_error`).
	 */
	public static function send_or_keep( Api_Client $client, array $message, array $meta = array() ) {
		if ( Delivery_State::breaker_open() ) {
			$state = Delivery_State::get();
			/* translators: %s: the instance's last error, in words. */
			$why = sprintf( __( 'Not tried yet: the instance did not answer a moment ago (%s), so new mail waits here a few seconds instead of waiting for a time-out.', 'sitebeam' ), $state['last_error'] );
			return self::add( $message, 0, $state['breaker_until'], $why, $meta );
		}
		$result = $client->send_email( $message );
		if ( ! is_wp_error( $result ) ) {
			if ( Delivery_State::record_success() ) {
				Outbox_Sender::start_drain();
			}
			return true;
		}
		if ( ! self::is_passing( $result ) ) {
			return $result;
		}
		Delivery_State::record_failure( $result );
		$retry_after = (int) ( ( (array) $result->get_error_data() )['retry_after'] ?? 0 );
		$meta        = array(
			'history'  => self::history_with( '', $result ),
			'last_try' => time(),
		) + $meta;
		$id          = self::add( $message, 1, time() + self::delay( 1, $retry_after ), Api_Messages::describe( $result ), $meta );
		if ( is_wp_error( $id ) ) {
			$id->add_data( array( 'api_error' => $result ) );
		}
		return $id;
	}

	/**
	 * Keeps one message, unless its kind's share of the outbox is full. The check and the insert are one SQL
	 * statement, so two requests can never both take the last place.
	 *
	 * @param array<string, mixed> $message  One API message.
	 * @param int                  $tries    Tries already made.
	 * @param int                  $next_try When to try next (Unix time).
	 * @param string               $error    The last error, in words.
	 * @param array<string, mixed> $meta     See send_or_keep(); also `history` (JSON) and `last_try`.
	 * @return int|WP_Error The row's id.
	 */
	public static function add( array $message, $tries, $next_try, $error, array $meta = array() ) {
		global $wpdb;
		self::maybe_install();
		$kind    = self::KIND_CONTACT === ( $meta['kind'] ?? '' ) ? self::KIND_CONTACT : self::KIND_SITE;
		$json    = (string) wp_json_encode( $message );
		$wp_mail = isset( $meta['wp_mail'] ) ? (string) wp_json_encode( $meta['wp_mail'] ) : '';
		$bytes   = strlen( $json ) + strlen( $wp_mail );
		$limit   = self::limits( $kind );
		$table   = self::table();
		$values  = array(
			'created_at' => array( '%d', time() ),
			'next_try'   => array( '%d', (int) $next_try ),
			'tries'      => array( '%d', (int) $tries ),
			'state'      => array( '%s', self::WAITING ),
			'kind'       => array( '%s', $kind ),
			'last_try'   => array( '%d', (int) ( $meta['last_try'] ?? 0 ) ),
			'recipient'  => array( '%s', (string) ( $message[ Contract::EMAIL_FIELD_TO ] ?? '' ) ),
			'visitor'    => array( '%s', strtolower( (string) ( $meta['visitor'] ?? '' ) ) ),
			'subject'    => array( '%s', (string) ( $message[ Contract::EMAIL_FIELD_SUBJECT ] ?? '' ) ),
			'message'    => array( '%s', $json ),
			'attachment' => array( '%s', (string) ( $message[ Contract::EMAIL_FIELD_ATTACHMENT ][ Contract::ATTACHMENT_FIELD_FILE_NAME ] ?? '' ) ),
			'bytes'      => array( '%d', $bytes ),
			'last_error' => array( '%s', (string) $error ),
			'history'    => array( '%s', (string) ( $meta['history'] ?? '[]' ) ),
			'mail_group' => array( '%s', (string) ( $meta['mail_group'] ?? '' ) ),
			'wp_mail'    => array( '%s', $wp_mail ),
		);
		$columns = implode( ', ', array_keys( $values ) );
		$select  = implode( ', ', array_column( $values, 0 ) );
		$args    = array_merge( array_column( $values, 1 ), array( $kind, $limit['mails'], $kind, $bytes, $limit['bytes'] ) );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- the plugin's own table and columns; one placeholder per value, in $args.
		$sql = $wpdb->prepare( "INSERT INTO $table ($columns) SELECT $select FROM DUAL WHERE (SELECT COUNT(*) FROM $table WHERE kind = %s) < %d AND (SELECT COALESCE(SUM(bytes), 0) FROM $table WHERE kind = %s) + %d <= %d", $args );
		// Two inserts at once may deadlock on the count's locks: InnoDB then rolls one back, which tries again.
		for ( $attempt = 0, $inserted = false; $attempt < 3 && false === $inserted; $attempt++ ) {
			$inserted = $wpdb->query( $sql ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- prepared above.
		}
		if ( 1 === $inserted ) {
			Outbox_Sender::keep_watch( (int) $next_try );
			return (int) $wpdb->insert_id;
		}
		if ( 0 === $inserted ) {
			return new WP_Error( self::ERROR_FULL, self::KIND_CONTACT === $kind ? self::contact_full_text( $limit ) : self::full_text( $limit ) );
		}
		return new WP_Error( self::ERROR_FULL, __( 'The instance could not take the mail and the outbox could not store it.', 'sitebeam' ) );
	}

	/**
	 * Why the site's own mail was not kept, with the way out.
	 *
	 * @param array{mails: int, bytes: int} $limit The site mail's share.
	 */
	private static function full_text( array $limit ) {
		/* translators: 1: number of mails, 2: size in megabytes. */
		return sprintf( __( 'The instance could not take the mail and the outbox is full (at most %1$d mails, %2$s MB for the site’s own mail): it was not kept. Send or delete the waiting mail under Tools → Sitebeam outbox.', 'sitebeam' ), $limit['mails'], number_format_i18n( $limit['bytes'] / MB_IN_BYTES, 1 ) );
	}

	/**
	 * Why a contact message was not kept.
	 *
	 * @param array{mails: int, bytes: int} $limit The contact messages' share.
	 */
	private static function contact_full_text( array $limit ) {
		/* translators: 1: number of messages, 2: size in megabytes. */
		return sprintf( __( 'The instance could not take the contact message and the contact messages’ share of the outbox is full (at most %1$d messages, %2$s MB): it was not kept, and the visitor was asked to try again.', 'sitebeam' ), $limit['mails'], number_format_i18n( $limit['bytes'] / MB_IN_BYTES, 1 ) );
	}

	/**
	 * The room of one kind of mail. Contact messages get their share of the outbox (setting `outbox_contacts`,
	 * a percentage) and the site's own mail the rest, each counted apart: a flood of contact posts never takes the
	 * room of a password reset, and the two shares together never exceed the outbox's size.
	 *
	 * @param string|null $kind KIND_SITE or KIND_CONTACT; null: the whole outbox.
	 * @return array{mails: int, bytes: int}
	 */
	public static function limits( $kind = null ) {
		$settings = Settings::get();
		$mails    = max( 1, (int) $settings['outbox_max_mails'] );
		$bytes    = (int) max( 1, (float) $settings['outbox_max_mb'] ) * MB_IN_BYTES;
		$share    = min( 100, max( 0, (int) $settings['outbox_contacts'] ) ) / 100;
		$contact  = array(
			'mails' => (int) floor( $mails * $share ),
			'bytes' => (int) floor( $bytes * $share ),
		);
		if ( self::KIND_CONTACT === $kind ) {
			return $contact;
		}
		if ( self::KIND_SITE === $kind ) {
			return array(
				'mails' => max( 1, $mails - $contact['mails'] ),
				'bytes' => max( 1, $bytes - $contact['bytes'] ),
			);
		}
		return compact( 'mails', 'bytes' );
	}

	/**
	 * Seconds before try number $tries + 1: doubling from the contract's first retry up to its longest, with jitter
	 * (half to all of it, so that sites sharing an instance do not come back at the same second), and never before
	 * Retry-After (at most the contract's longest).
	 *
	 * @param int $tries       Tries made so far (at least 1).
	 * @param int $retry_after The instance's Retry-After, seconds, or 0.
	 */
	public static function delay( $tries, $retry_after = 0 ) {
		$base = (int) min( Contract::OUTBOX_MAX_RETRY_S, Contract::OUTBOX_FIRST_RETRY_S * 2 ** min( 20, max( 0, $tries - 1 ) ) );
		$wait = wp_rand( (int) ceil( $base / 2 ), $base );
		return max( $wait, min( (int) $retry_after, Contract::OUTBOX_RETRY_AFTER_MAX_S ) );
	}

	/**
	 * A row's history with one more try: the JSON list of the last HISTORY_SIZE tries, oldest first.
	 *
	 * @param string        $history The row's history (JSON), or ''.
	 * @param WP_Error|null $error   Why the try failed; null: it succeeded.
	 */
	public static function history_with( $history, $error ) {
		$tries   = json_decode( (string) $history, true );
		$tries   = is_array( $tries ) ? $tries : array();
		$tries[] = array(
			'at'     => time(),
			'status' => null === $error ? 200 : max( 0, (int) ( ( (array) $error->get_error_data() )['status'] ?? 0 ) ),
			'error'  => null === $error ? '' : Api_Messages::describe( $error ),
		);
		return (string) wp_json_encode( array_slice( $tries, -self::HISTORY_SIZE ) );
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
		return (array) $wpdb->get_results( $wpdb->prepare( "SELECT id, created_at, next_try, last_try, tries, state, kind, failure, recipient, visitor, subject, attachment, bytes, last_error, history FROM $table ORDER BY id LIMIT %d", $limit ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
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
		return 1 === self::delete_rows( array( $id ) );
	}

	/**
	 * Deletes a delivered row (its send-log line says sent).
	 *
	 * @param int $id Row id.
	 */
	public static function delete_sent( $id ) {
		global $wpdb;
		$wpdb->delete( self::table(), array( 'id' => (int) $id ), array( '%d' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the plugin's own table.
	}

	/**
	 * How many rows of one wp_mail() call are left (waiting, being sent or failed).
	 *
	 * @param string $group The call's mail_group.
	 */
	public static function group_size( $group ) {
		global $wpdb;
		$table = self::table();
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM $table WHERE mail_group = %s", $group ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * Detaches rows from their wp_mail() call: that call failed (wp_mail_failed fired), so their delivery fires no
	 * wp_mail_succeeded.
	 *
	 * @param int[] $ids Row ids.
	 */
	public static function forget_group( array $ids ) {
		global $wpdb;
		$ids = array_values( array_filter( array_map( 'intval', $ids ) ) );
		if ( array() === $ids ) {
			return;
		}
		$table = self::table();
		$in    = implode( ', ', array_fill( 0, count( $ids ), '%d' ) );
		$wpdb->query( $wpdb->prepare( "UPDATE $table SET mail_group = '' WHERE id IN ($in)", $ids ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- the plugin's own table; $in holds one placeholder per id.
	}

	/**
	 * Deletes rows, each logged in the send log as deleted unsent (not when the privacy eraser deletes them: the log
	 * would name the erased address again).
	 *
	 * @param int[] $ids Row ids.
	 * @param bool  $log Whether the send log says so.
	 * @return int How many were deleted.
	 */
	public static function delete_rows( array $ids, $log = true ) {
		global $wpdb;
		$ids = array_values( array_filter( array_map( 'intval', $ids ) ) );
		if ( array() === $ids ) {
			return 0;
		}
		self::maybe_install();
		$table = self::table();
		$in    = implode( ', ', array_fill( 0, count( $ids ), '%d' ) );
		$rows  = (array) $wpdb->get_results( $wpdb->prepare( "SELECT id, recipient, subject FROM $table WHERE id IN ($in)", $ids ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- the plugin's own table; $in holds one placeholder per id.
		return self::delete_found( $rows, $log );
	}

	/**
	 * Deletes every row in a state, of a kind: the owner's bulk actions and `wp sitebeam outbox delete`.
	 *
	 * @param string|null $state self::WAITING (not the mail being sent at this moment), self::FAILED, or null for
	 *                           all.
	 * @param string|null $kind  self::KIND_SITE, self::KIND_CONTACT, or null for both.
	 * @return int How many were deleted.
	 */
	public static function delete_all( $state = null, $kind = null ) {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		$where = array( '1 = 1' );
		if ( self::FAILED === $state ) {
			$where[] = $wpdb->prepare( 'state = %s', self::FAILED );
		} elseif ( null !== $state ) {
			$where[] = $wpdb->prepare( 'state = %s', self::WAITING );
		}
		if ( null !== $kind ) {
			$where[] = $wpdb->prepare( 'kind = %s', $kind );
		}
		$rows = (array) $wpdb->get_results( "SELECT id, recipient, subject FROM $table WHERE " . implode( ' AND ', $where ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- the plugin's own table; each condition is prepared above.
		return self::delete_found( $rows );
	}

	/**
	 * Deletes the rows found, and logs each.
	 *
	 * @param array<int, array{id: string, recipient: string, subject: string}> $rows Rows.
	 * @param bool                                                              $log  Whether the send log says so.
	 * @return int How many were deleted.
	 */
	private static function delete_found( array $rows, $log = true ) {
		global $wpdb;
		if ( array() === $rows ) {
			return 0;
		}
		$table   = self::table();
		$ids     = array_map( 'intval', array_column( $rows, 'id' ) );
		$in      = implode( ', ', array_fill( 0, count( $ids ), '%d' ) );
		$deleted = (int) $wpdb->query( $wpdb->prepare( "DELETE FROM $table WHERE id IN ($in)", $ids ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- the plugin's own table; $in holds one placeholder per id.
		foreach ( $log ? array_slice( $rows, -Send_Log::SIZE ) : array() as $row ) {
			Send_Log::record( array( $row['recipient'] ), $row['subject'], Send_Log::DELETED );
		}
		return $deleted;
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
		$wpdb->query( $wpdb->prepare( "UPDATE $table SET created_at = IF(state = %s, %d, created_at), failure = '', state = %s, next_try = %d WHERE state <> %s", self::FAILED, time(), self::WAITING, time(), self::SENDING ) . $where ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL -- the plugin's own table; $where is prepared above.
	}

	/**
	 * Makes every waiting mail due now, whatever its backoff: the instance is back (failed mail stays failed). A mail
	 * tried since $tried_before keeps its backoff: it failed while the instance worked, so the fault is its own.
	 *
	 * @param int|null $tried_before Only mail last tried before this time; null: all.
	 * @return int How many were made due.
	 */
	public static function make_waiting_due( $tried_before = null ) {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		return (int) $wpdb->query( $wpdb->prepare( "UPDATE $table SET next_try = %d WHERE state = %s AND next_try > %d AND last_try < %d", time(), self::WAITING, time(), $tried_before ?? PHP_INT_MAX ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * Deletes failed mail kept longer than the retention period (setting `outbox_keep_days`).
	 *
	 * @return int How many were deleted.
	 */
	public static function purge_failed() {
		global $wpdb;
		self::maybe_install();
		$table  = self::table();
		$cutoff = time() - max( 1, (int) Settings::get()['outbox_keep_days'] ) * DAY_IN_SECONDS;
		return (int) $wpdb->query( $wpdb->prepare( "DELETE FROM $table WHERE state = %s AND next_try < %d", self::FAILED, $cutoff ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
	}

	/**
	 * The rows of an address (compared without case), for the privacy tools: mail to it, and the contact messages
	 * its owner sent (found by the visitor's address, though they are addressed to the site's owner).
	 *
	 * @param string $address A bare address.
	 * @return array<int, array<string, mixed>>
	 */
	public static function rows_for( $address ) {
		global $wpdb;
		self::maybe_install();
		$table   = self::table();
		$address = trim( (string) $address );
		$like    = '%' . $wpdb->esc_like( $address ) . '%';
		$rows    = (array) $wpdb->get_results( $wpdb->prepare( "SELECT id, created_at, state, kind, recipient, visitor, subject, message FROM $table WHERE visitor = %s OR recipient LIKE %s ORDER BY id", strtolower( $address ), $like ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return array_values(
			array_filter(
				$rows,
				static function ( $row ) use ( $address ) {
					$bare = preg_match( '/<([^<>]+)>\s*$/', (string) $row['recipient'], $match ) ? $match[1] : (string) $row['recipient'];
					return 0 === strcasecmp( trim( $bare ), $address ) || 0 === strcasecmp( (string) $row['visitor'], $address );
				}
			)
		);
	}
}
