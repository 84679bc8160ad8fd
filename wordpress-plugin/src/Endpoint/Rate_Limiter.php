<?php
/**
 * Per-visitor limit on posts to a public endpoint, counted in one options row per endpoint and visitor, named by a
 * hash of both (no IP is stored); each endpoint has its own allowance, and an IPv6 visitor is counted by its /64.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Per-visitor limit on posts to a public endpoint; each endpoint has its own allowance.
 *
 * Counted as Daily_Budget counts the chat's day: one SQL statement (INSERT … ON DUPLICATE KEY UPDATE) that adds a
 * post only while the window holds fewer than the limit, so concurrent requests (PHP workers, several web servers on
 * one database) never pass more than the allowance: the row lock makes it atomic. The row's value is
 * "window end:posts". A transient's get-then-set let a burst of parallel posts all pass, and without a persistent
 * object cache wp_cache_incr() lives in one request.
 */
final class Rate_Limiter {

	const PREFIX = 'sitebeam_rl_';

	/**
	 * Counts one post and tells how long the visitor must wait.
	 *
	 * @param string $endpoint   The endpoint's name ('contact', 'chat'): its counters are its own.
	 * @param int    $max        Posts allowed per window.
	 * @param int    $window     Window in seconds, from the visitor's first post.
	 * @param string $visitor_ip The visitor's address (Visitor::address()); an IPv6 address counts as its /64.
	 * @return int Seconds to wait; 0 when the post is allowed.
	 */
	public static function hit( $endpoint, $max, $window, $visitor_ip ) {
		global $wpdb;
		$key   = self::PREFIX . substr( hash_hmac( 'sha256', $endpoint . '|' . Visitor::counted_as( (string) $visitor_ip ), wp_salt( 'nonce' ) ), 0, 32 );
		$now   = time();
		$reset = $now + max( 1, (int) $window );
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- an atomic counter has no options API; never cached.
		// MySQL assigns left to right: the count is decided against the window end before that is renewed.
		$changed = $wpdb->query(
			$wpdb->prepare(
				"INSERT INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'no')
				ON DUPLICATE KEY UPDATE option_value = IF(
					SUBSTRING_INDEX(option_value, ':', 1) + 0 <= %d,
					VALUES(option_value),
					IF(SUBSTRING_INDEX(option_value, ':', -1) + 0 < %d, CONCAT(SUBSTRING_INDEX(option_value, ':', 1), ':', SUBSTRING_INDEX(option_value, ':', -1) + 1), option_value)
				)",
				$key,
				$reset . ':1',
				$now,
				(int) $max
			)
		);
		if ( 1 === $changed ) {
			// A visitor's first post, or one after a long while: the windows that have ended are forgotten.
			$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s AND SUBSTRING_INDEX(option_value, ':', 1) + 0 < %d", $wpdb->esc_like( self::PREFIX ) . '%', $now ) );
		}
		if ( $changed > 0 && (int) $max > 0 ) {
			return 0;
		}
		$value = (string) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", $key ) );
		// phpcs:enable
		return max( 1, (int) strtok( $value, ':' ) - $now );
	}
}
