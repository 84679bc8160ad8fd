<?php
/**
 * Per-visitor limit on contact posts, counted in a transient keyed by a hash of the address (no IP is stored).
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Per-visitor limit on contact posts, counted in a transient keyed by a hash of the address (no IP is stored).
 */
final class Rate_Limiter {

	const PREFIX = 'sitebeam_rl_';

	/**
	 * Counts one post and tells how long the visitor must wait.
	 *
	 * @param string $visitor_ip The visitor's address.
	 * @return int Seconds to wait; 0 when the post is allowed.
	 */
	public static function hit( $visitor_ip ) {
		/**
		 * Filters the contact form rate: at most `max` posts per `window` seconds per visitor.
		 *
		 * @param array{max: int, window: int} $rate Default: 5 a minute.
		 */
		$rate   = apply_filters(
			'sitebeam_contact_rate_limit',
			array(
				'max'    => Contract::CONTACT_RATE_LIMIT_COUNT,
				'window' => Contract::CONTACT_RATE_LIMIT_WINDOW_S,
			)
		);
		$key    = self::PREFIX . substr( hash_hmac( 'sha256', (string) $visitor_ip, wp_salt( 'nonce' ) ), 0, 32 );
		$now    = time();
		$bucket = get_transient( $key );
		if ( ! is_array( $bucket ) || $bucket['reset'] <= $now ) {
			$bucket = array(
				'count' => 0,
				'reset' => $now + (int) $rate['window'],
			);
		}
		if ( $bucket['count'] >= (int) $rate['max'] ) {
			return max( 1, $bucket['reset'] - $now );
		}
		++$bucket['count'];
		set_transient( $key, $bucket, max( 1, $bucket['reset'] - $now ) );
		return 0;
	}
}
