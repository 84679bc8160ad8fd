<?php
/**
 * Per-visitor limit on posts to a public endpoint, counted in a transient keyed by a hash of the endpoint and the
 * address (no IP is stored); each endpoint has its own allowance.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Per-visitor limit on posts to a public endpoint; each endpoint has its own allowance.
 */
final class Rate_Limiter {

	const PREFIX = 'sitebeam_rl_';

	/**
	 * Counts one post and tells how long the visitor must wait.
	 *
	 * @param string $endpoint   The endpoint's name ('contact', 'chat'): its counters are its own.
	 * @param int    $max        Posts allowed per window.
	 * @param int    $window     Window in seconds.
	 * @param string $visitor_ip The visitor's address (Visitor::address()).
	 * @return int Seconds to wait; 0 when the post is allowed.
	 */
	public static function hit( $endpoint, $max, $window, $visitor_ip ) {
		$key    = self::PREFIX . substr( hash_hmac( 'sha256', $endpoint . '|' . $visitor_ip, wp_salt( 'nonce' ) ), 0, 32 );
		$now    = time();
		$bucket = get_transient( $key );
		if ( ! is_array( $bucket ) || $bucket['reset'] <= $now ) {
			$bucket = array(
				'count' => 0,
				'reset' => $now + (int) $window,
			);
		}
		if ( $bucket['count'] >= (int) $max ) {
			return max( 1, $bucket['reset'] - $now );
		}
		++$bucket['count'];
		set_transient( $key, $bucket, max( 1, $bucket['reset'] - $now ) );
		return 0;
	}
}
