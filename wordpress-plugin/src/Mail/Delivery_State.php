<?php
/**
 * What the last sends to the instance showed, shared by every request and process: whether the instance is failing
 * (and since when), the circuit breaker, and when it last came back.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Api_Messages;
use Sitebeam\Contract;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What the last sends to the instance showed, shared by every request and process.
 *
 * One option (the network's on multisite, where every site sends through the network's instance), read through the
 * options cache, so a persistent object cache shares it as the database does. The circuit breaker: once a send got
 * no answer (a time-out, a refused connection), new mail goes straight to the outbox for Contract::OUTBOX_BREAKER_S
 * seconds, so that a hung instance costs one time-out, not one per page; a success closes it.
 *
 * The instance counts as failing after a send that got no answer, or after a passing failure when no mail went
 * through in the minute before: a single mail the instance keeps failing (its own content) while other mail flows
 * is that mail's problem, not the instance's, and does not start the per-minute probes and the drain on recovery.
 */
final class Delivery_State {

	const OPTION = 'sitebeam_delivery_state';

	/** Mail that went through this recently shows the instance works: a passing failure is then the mail's own. */
	const FLOWING_S = MINUTE_IN_SECONDS;

	/** A success is written at most this often while nothing else changes: one write per mail would be waste. */
	const SUCCESS_WRITE_S = 10;

	/**
	 * The state: `failing_since` null while mail flows; `breaker_until` 0 or when the breaker closes; `last_try`
	 * when a send was last made; `recovered_at` when the instance last came back after failing (0: never);
	 * `retry_until` the instance's last Retry-After, as a time.
	 *
	 * @return array{failing_since: int|null, last_error: string, last_status: int, last_success: int|null, breaker_until: int, last_try: int, recovered_at: int, retry_until: int}
	 */
	public static function get() {
		$stored = is_multisite() ? get_site_option( self::OPTION, array() ) : get_option( self::OPTION, array() );
		$state  = array_merge(
			array(
				'failing_since' => null,
				'last_error'    => '',
				'last_status'   => 0,
				'last_success'  => null,
				'breaker_until' => 0,
				'last_try'      => 0,
				'recovered_at'  => 0,
				'retry_until'   => 0,
			),
			is_array( $stored ) ? $stored : array()
		);
		foreach ( array( 'failing_since', 'last_success' ) as $key ) {
			$state[ $key ] = null === $state[ $key ] ? null : (int) $state[ $key ];
		}
		foreach ( array( 'last_status', 'breaker_until', 'last_try', 'recovered_at', 'retry_until' ) as $key ) {
			$state[ $key ] = (int) $state[ $key ];
		}
		$state['last_error'] = (string) $state['last_error'];
		return $state;
	}

	/**
	 * Whether new mail goes straight to the outbox: a send got no answer less than OUTBOX_BREAKER_S seconds ago.
	 */
	public static function breaker_open() {
		return self::get()['breaker_until'] > time();
	}

	/**
	 * Records that the instance took a mail.
	 *
	 * @return bool Whether this success ended a time the instance was failing: the caller starts a drain.
	 */
	public static function record_success() {
		$state     = self::get();
		$now       = time();
		$recovered = null !== $state['failing_since'];
		if ( ! $recovered && 0 === $state['breaker_until'] && $now - (int) $state['last_success'] < self::SUCCESS_WRITE_S ) {
			return false;
		}
		$state['failing_since'] = null;
		$state['breaker_until'] = 0;
		$state['retry_until']   = 0;
		$state['last_success']  = $now;
		$state['last_try']      = $now;
		if ( $recovered ) {
			$state['recovered_at'] = $now;
		}
		self::write( $state );
		return $recovered;
	}

	/**
	 * Records a passing failure (Outbox::is_passing()).
	 *
	 * @param WP_Error $error From Api_Client.
	 */
	public static function record_failure( WP_Error $error ) {
		$state  = self::get();
		$now    = time();
		$data   = (array) $error->get_error_data();
		$status = (int) ( $data['status'] ?? 0 );
		if ( 0 === $status || $now - (int) $state['last_success'] >= self::FLOWING_S ) {
			$state['failing_since'] = $state['failing_since'] ?? $now;
		}
		if ( 0 === $status ) {
			$state['breaker_until'] = $now + Contract::OUTBOX_BREAKER_S;
		}
		$retry_after = min( (int) ( $data['retry_after'] ?? 0 ), Contract::OUTBOX_RETRY_AFTER_MAX_S );
		if ( $retry_after > 0 ) {
			$state['retry_until'] = max( $state['retry_until'], $now + $retry_after );
		}
		$state['last_error']  = Api_Messages::describe( $error );
		$state['last_status'] = $status;
		$state['last_try']    = $now;
		self::write( $state );
	}

	/**
	 * Records that several mails in a row failed the same way: the instance is failing, whatever mail went through
	 * before (a run's early stop).
	 */
	public static function record_outage() {
		$state = self::get();
		if ( null === $state['failing_since'] ) {
			$state['failing_since'] = time();
			self::write( $state );
		}
	}

	/**
	 * Whether a run may try one waiting mail before its time to learn whether a failing instance is back: the
	 * instance is failing, its breaker is closed, its Retry-After has passed and nothing was tried for as long as
	 * the breaker lasts. A site whose cron runs every minute so notices the instance's return within a minute.
	 */
	public static function wants_probe() {
		$state = self::get();
		$now   = time();
		return null !== $state['failing_since'] && $state['breaker_until'] <= $now && $state['retry_until'] <= $now
			&& $now - $state['last_try'] >= Contract::OUTBOX_BREAKER_S;
	}

	/**
	 * Stores the state where every request finds it; never autoloaded (only mail needs it).
	 *
	 * @param array<string, mixed> $state The state.
	 */
	private static function write( array $state ) {
		if ( is_multisite() ) {
			update_site_option( self::OPTION, $state );
			return;
		}
		update_option( self::OPTION, $state, false );
	}
}
