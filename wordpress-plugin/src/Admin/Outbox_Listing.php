<?php
/**
 * The outbox as the owner's screens read it: counts by view, one page of rows searched and sorted, one mail whole,
 * and the failed mail summed up for the notice and Site Health. Read-only: every change goes through Outbox and
 * Outbox_Sender.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Outbox;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The outbox as the owner's screens read it: counts by view, one page of rows searched and sorted, one mail whole,
 * and the failed mail summed up for the notice and Site Health.
 */
final class Outbox_Listing {

	const VIEW_ALL     = 'all';
	const VIEW_WAITING = 'waiting';
	const VIEW_FAILED  = 'failed';

	/** Sortable columns: the query's key => the table's column. */
	const ORDERBY = array(
		'queued'   => 'created_at',
		'next_try' => 'next_try',
	);

	/** The columns a list row needs: never the message, which may be megabytes and hold a reset link. */
	const LIST_COLUMNS = 'id, created_at, next_try, tries, state, recipient, subject, bytes, last_error, kind, failure, last_try, attachment';

	/**
	 * How many mails each view shows, and how many are contact messages.
	 *
	 * @return array{all: int, waiting: int, failed: int, contact: int}
	 */
	public static function counts() {
		global $wpdb;
		Outbox::maybe_install();
		$table = Outbox::table();
		$row   = $wpdb->get_row( $wpdb->prepare( "SELECT COUNT(*) AS total, COALESCE(SUM(state = %s), 0) AS failed, COALESCE(SUM(kind = %s), 0) AS contact FROM $table", Outbox::FAILED, Outbox::KIND_CONTACT ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		$total = (int) ( $row['total'] ?? 0 );
		$fail  = (int) ( $row['failed'] ?? 0 );
		return array(
			self::VIEW_ALL     => $total,
			self::VIEW_WAITING => $total - $fail,
			self::VIEW_FAILED  => $fail,
			'contact'          => (int) ( $row['contact'] ?? 0 ),
		);
	}

	/**
	 * One page of rows.
	 *
	 * @param array<string, mixed> $query view (all|waiting|failed), search (in recipient and subject), orderby
	 *                                    (queued|next_try), order (asc|desc), page (from 1), per_page.
	 * @return array{rows: array<int, array<string, string>>, total: int}
	 */
	public static function page( array $query ) {
		global $wpdb;
		Outbox::maybe_install();
		$table    = Outbox::table();
		$where    = self::where( (string) ( $query['view'] ?? self::VIEW_ALL ), (string) ( $query['search'] ?? '' ) );
		$per_page = max( 1, (int) ( $query['per_page'] ?? 20 ) );
		$offset   = ( max( 1, (int) ( $query['page'] ?? 1 ) ) - 1 ) * $per_page;
		$order    = 'asc' === strtolower( (string) ( $query['order'] ?? '' ) ) ? 'ASC' : 'DESC';
		$column   = self::ORDERBY[ (string) ( $query['orderby'] ?? '' ) ] ?? self::ORDERBY['queued'];
		// Failed mail has no next try: it sorts after every waiting mail, whichever the direction.
		$sort  = 'next_try' === $column ? $wpdb->prepare( 'state = %s ASC, ', Outbox::FAILED ) : '';
		$sort .= "$column $order, id $order";
		$total = (int) $wpdb->get_var( "SELECT COUNT(*) FROM $table WHERE $where" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL -- the plugin's own table; $where is prepared by where().
		$rows  = $wpdb->get_results( $wpdb->prepare( 'SELECT ' . self::LIST_COLUMNS . " FROM $table WHERE $where ORDER BY $sort LIMIT %d OFFSET %d", $per_page, $offset ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL -- the plugin's own table; $where is prepared, $sort built from a fixed list.
		return array(
			'rows'  => (array) $rows,
			'total' => $total,
		);
	}

	/**
	 * The WHERE clause of a view and a search, prepared.
	 *
	 * @param string $view   all|waiting|failed.
	 * @param string $search Text to find in the recipient or the subject; '' for all.
	 */
	private static function where( $view, $search ) {
		global $wpdb;
		$where = '1 = 1';
		if ( self::VIEW_WAITING === $view ) {
			$where = $wpdb->prepare( 'state <> %s', Outbox::FAILED );
		} elseif ( self::VIEW_FAILED === $view ) {
			$where = $wpdb->prepare( 'state = %s', Outbox::FAILED );
		}
		$search = trim( $search );
		if ( '' !== $search ) {
			$like   = '%' . $wpdb->esc_like( $search ) . '%';
			$where .= $wpdb->prepare( ' AND (recipient LIKE %s OR subject LIKE %s)', $like, $like );
		}
		return $where;
	}

	/**
	 * One mail whole (message and tries included), or null when it is no longer in the outbox.
	 *
	 * @param int $id The row's id.
	 * @return array<string, string>|null
	 */
	public static function mail( $id ) {
		global $wpdb;
		Outbox::maybe_install();
		$table = Outbox::table();
		$row   = $wpdb->get_row( $wpdb->prepare( "SELECT * FROM $table WHERE id = %d", $id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return is_array( $row ) ? $row : null;
	}

	/**
	 * The list rows of some mails, oldest first (for a confirmation that names them).
	 *
	 * @param int[] $ids Row ids.
	 * @return array<int, array<string, string>>
	 */
	public static function mails( array $ids ) {
		global $wpdb;
		$ids = array_values( array_filter( array_map( 'intval', $ids ) ) );
		if ( array() === $ids ) {
			return array();
		}
		Outbox::maybe_install();
		$table = Outbox::table();
		$in    = implode( ', ', array_fill( 0, count( $ids ), '%d' ) );
		return (array) $wpdb->get_results( $wpdb->prepare( 'SELECT ' . self::LIST_COLUMNS . " FROM $table WHERE id IN ($in) ORDER BY id", $ids ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL, WordPress.DB.PreparedSQLPlaceholders -- the plugin's own table; one %d per id.
	}

	/**
	 * When the next waiting mail is due, or null when none waits.
	 */
	public static function next_try() {
		global $wpdb;
		Outbox::maybe_install();
		$table = Outbox::table();
		$next  = $wpdb->get_var( $wpdb->prepare( "SELECT MIN(next_try) FROM $table WHERE state = %s", Outbox::WAITING ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return null === $next ? null : (int) $next;
	}

	/**
	 * The failed mail summed up: how many, since when, the newest failure's cause in words, and a mark that grows
	 * with every new failure (a notice dismissed at one mark shows again at a higher one). Null when none failed.
	 *
	 * A failed row's next_try holds when it was given up (refused, or past its lifetime).
	 *
	 * @return array{count: int, since: int, cause: string, mark: string}|null
	 */
	public static function failures() {
		global $wpdb;
		Outbox::maybe_install();
		$table = Outbox::table();
		$sum   = $wpdb->get_row( $wpdb->prepare( "SELECT COUNT(*) AS failed, MIN(next_try) AS since, MAX(next_try) AS newest, MAX(id) AS top FROM $table WHERE state = %s", Outbox::FAILED ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		if ( ! is_array( $sum ) || (int) $sum['failed'] < 1 ) {
			return null;
		}
		$cause = $wpdb->get_var( $wpdb->prepare( "SELECT last_error FROM $table WHERE state = %s ORDER BY next_try DESC, id DESC LIMIT 1", Outbox::FAILED ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the plugin's own table.
		return array(
			'count' => (int) $sum['failed'],
			'since' => (int) $sum['since'],
			'cause' => (string) $cause,
			'mark'  => (int) $sum['newest'] . ':' . (int) $sum['top'],
		);
	}
}
