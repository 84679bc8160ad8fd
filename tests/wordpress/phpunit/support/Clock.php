<?php
/**
 * A scaled clock for the outbox: moves the site's clock forward by moving every time the outbox keeps back by as
 * much (its rows, its lock, the delivery state, WP-Cron's events). What a sender then sees is what it would see had
 * that time passed. Written against table and option names, not the plugin's classes, so that the benchmark can run
 * it against the previous release of the plugin too.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

final class Clock {

	/**
	 * Time passes: $seconds later for every stored time of the outbox on the current site.
	 *
	 * @param int $seconds How much later.
	 */
	public static function advance( $seconds ) {
		global $wpdb;
		// Another process (a cron run) may have changed the options since this one read them.
		wp_cache_flush();
		$seconds = (int) $seconds;
		$table   = $wpdb->prefix . 'sitebeam_outbox';
		$columns = $wpdb->get_col( "SHOW COLUMNS FROM $table" ); // phpcs:ignore WordPress.DB
		$moves   = array();
		foreach ( array( 'created_at', 'next_try', 'claimed_until', 'last_try' ) as $column ) {
			if ( in_array( $column, $columns, true ) ) {
				$moves[] = $wpdb->prepare( "$column = IF($column > 0, GREATEST($column - %d, 1), 0)", $seconds ); // phpcs:ignore WordPress.DB
			}
		}
		$wpdb->query( "UPDATE $table SET " . implode( ', ', $moves ) ); // phpcs:ignore WordPress.DB
		$lock = (string) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", 'sitebeam_outbox_lock' ) ); // phpcs:ignore WordPress.DB
		if ( '' !== $lock ) {
			$parts = explode( ':', $lock, 2 );
			$wpdb->update( $wpdb->options, array( 'option_value' => ( (int) $parts[0] - $seconds ) . ':' . ( $parts[1] ?? '' ) ), array( 'option_name' => 'sitebeam_outbox_lock' ) ); // phpcs:ignore WordPress.DB
		}
		$state = is_multisite() ? get_site_option( 'sitebeam_delivery_state' ) : get_option( 'sitebeam_delivery_state' );
		if ( is_array( $state ) ) {
			foreach ( array( 'failing_since', 'last_success', 'breaker_until', 'last_try', 'recovered_at', 'retry_until' ) as $key ) {
				if ( ! empty( $state[ $key ] ) ) {
					$state[ $key ] -= $seconds;
				}
			}
			if ( is_multisite() ) {
				update_site_option( 'sitebeam_delivery_state', $state );
			} else {
				update_option( 'sitebeam_delivery_state', $state, false );
			}
		}
		if ( get_option( 'sitebeam_outbox_drained' ) ) {
			update_option( 'sitebeam_outbox_drained', (int) get_option( 'sitebeam_outbox_drained' ) - $seconds, false );
		}
		// WP-Cron's own lock (a wp-cron.php run holds it for a minute).
		$cron_lock = (float) get_transient( 'doing_cron' );
		if ( $cron_lock > 0 ) {
			set_transient( 'doing_cron', sprintf( '%.22F', $cron_lock - $seconds ) );
		}
		$moved = array();
		foreach ( (array) _get_cron_array() as $timestamp => $hooks ) {
			$moved[ $timestamp - $seconds ] = $hooks;
		}
		ksort( $moved );
		_set_cron_array( $moved );
	}
}
