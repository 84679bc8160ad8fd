<?php
/**
 * The owner's daily chat budget: messages the whole site sends to the model per UTC day, all visitors together
 * (contract/chat-protocol.md, "daily budget"); on multisite, where the token is the network's, every site of the
 * network together.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The owner's daily chat budget, counted in one option row per UTC day.
 *
 * Counted as WooCommerce counts stock: one SQL UPDATE that adds 1 only while the count is under the limit, so
 * concurrent requests (PHP workers, several web servers on one database) can never take more than the limit; the
 * database's row lock makes it atomic. Transients and wp_cache_incr() are not: without a persistent object cache
 * they live in the request, and a cache may evict a counter, which would reopen a closed day.
 */
final class Daily_Budget {

	/** Followed by the UTC date, Ymd. */
	const OPTION_PREFIX = 'sitebeam_chat_day_';

	const SECONDS_A_DAY = 86400;

	/**
	 * Counts one message of today (UTC); when today's messages are all spent, counts nothing and tells how long
	 * until the next UTC day.
	 *
	 * @param int $limit Messages a day, at least 1.
	 * @param int $now   Unix time.
	 * @return int Seconds to wait; 0 when the message may be sent.
	 */
	public static function take( $limit, $now ) {
		global $wpdb;
		$table  = self::table();
		$option = self::OPTION_PREFIX . gmdate( 'Ymd', $now );
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- an atomic counter has no options API; never cached.
		$created = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$table} (option_name, option_value, autoload) VALUES (%s, '0', 'no')", $option ) ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
		if ( 1 === $created ) {
			// A new day: the days before it are over.
			$wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE option_name LIKE %s AND option_name <> %s", $wpdb->esc_like( self::OPTION_PREFIX ) . '%', $option ) ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
		}
		$taken = $wpdb->query( $wpdb->prepare( "UPDATE {$table} SET option_value = option_value + 1 WHERE option_name = %s AND option_value + 0 < %d", $option, $limit ) ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a table name.
		// phpcs:enable
		return 1 === $taken ? 0 : self::seconds_to_next_day( $now );
	}

	/**
	 * Messages counted so far on a UTC day, for the settings page.
	 *
	 * @param int $now Unix time.
	 */
	public static function count( $now ) {
		global $wpdb;
		$table = self::table();
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the counter's row, never cached; a table name.
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$table} WHERE option_name = %s", self::OPTION_PREFIX . gmdate( 'Ymd', $now ) ) );
	}

	/**
	 * Where the day is counted: the site's options; on multisite the main site's, one count for the whole network,
	 * whose token every site's chat spends.
	 */
	public static function table() {
		global $wpdb;
		return is_multisite() ? $wpdb->get_blog_prefix( get_main_site_id() ) . 'options' : $wpdb->options;
	}

	/**
	 * Seconds from a time to the next UTC midnight, at least 1.
	 *
	 * @param int $now Unix time.
	 */
	public static function seconds_to_next_day( $now ) {
		return max( 1, self::SECONDS_A_DAY - ( $now % self::SECONDS_A_DAY ) );
	}
}
