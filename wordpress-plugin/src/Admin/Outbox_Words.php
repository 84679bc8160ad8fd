<?php
/**
 * The words the outbox screens say about a mail: its state, when it was queued, when it is tried next, in the site's
 * time zone.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Outbox;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The words the outbox screens say about a mail: its state, when it was queued, when it is tried next, in the site's
 * time zone.
 */
final class Outbox_Words {

	/**
	 * A mail's state in a word or two.
	 *
	 * @param array<string, string> $row An outbox row.
	 */
	public static function state( array $row ) {
		if ( Outbox::SENDING === $row['state'] ) {
			return __( 'Sending', 'sitebeam' );
		}
		if ( Outbox::FAILED !== $row['state'] ) {
			return __( 'Waiting', 'sitebeam' );
		}
		if ( Outbox::FAILURE_REFUSED === ( $row['failure'] ?? '' ) ) {
			return __( 'Failed: refused by the instance', 'sitebeam' );
		}
		if ( Outbox::FAILURE_EXPIRED === ( $row['failure'] ?? '' ) ) {
			return __( 'Failed: given up', 'sitebeam' );
		}
		return __( 'Failed', 'sitebeam' );
	}

	/**
	 * Whether the instance refused the mail for good (sending it again needs the owner's confirmation).
	 *
	 * @param array<string, string> $row An outbox row.
	 */
	public static function is_refused( array $row ) {
		return Outbox::FAILED === $row['state'] && Outbox::FAILURE_REFUSED === ( $row['failure'] ?? '' );
	}

	/**
	 * What the last try met, or why there was none.
	 *
	 * @param array<string, string> $row An outbox row.
	 */
	public static function last_error( array $row ) {
		if ( '' !== (string) $row['last_error'] ) {
			return (string) $row['last_error'];
		}
		return (int) $row['tries'] > 0 ? '' : __( 'Not tried yet.', 'sitebeam' );
	}

	/**
	 * When the mail is tried next.
	 *
	 * @param array<string, string> $row An outbox row.
	 */
	public static function next_try( array $row ) {
		if ( Outbox::FAILED === $row['state'] ) {
			return __( 'Not tried again', 'sitebeam' );
		}
		if ( Outbox::SENDING === $row['state'] ) {
			return __( 'Being sent now', 'sitebeam' );
		}
		return self::due( (int) $row['next_try'] );
	}

	/**
	 * "In 4 mins (13:19)", or "Overdue: at the next cron run" for a time that has passed.
	 *
	 * @param int $at Unix time.
	 */
	public static function due( $at ) {
		if ( $at <= time() ) {
			return __( 'Overdue: at the next cron run', 'sitebeam' );
		}
		/* translators: 1: a time span, e.g. "4 mins", 2: a time of day in the site's time zone. */
		return sprintf( __( 'In %1$s (%2$s)', 'sitebeam' ), human_time_diff( time(), $at ), self::time( $at ) );
	}

	/**
	 * "2 hours ago".
	 *
	 * @param int $at Unix time.
	 */
	public static function ago( $at ) {
		/* translators: %s: a time span, e.g. "2 hours". */
		return sprintf( __( '%s ago', 'sitebeam' ), human_time_diff( min( $at, time() ), time() ) );
	}

	/**
	 * A time in the site's time zone: the time of day for today, else the date and the time.
	 *
	 * @param int $at Unix time.
	 */
	public static function time( $at ) {
		$same_day = wp_date( 'Y-m-d', $at ) === wp_date( 'Y-m-d' );
		return (string) wp_date( $same_day ? get_option( 'time_format' ) : get_option( 'date_format' ) . ' ' . get_option( 'time_format' ), $at );
	}

	/**
	 * A `<time>` element: the words shown, the full date and time as its title and its machine-readable value.
	 *
	 * @param int    $at    Unix time.
	 * @param string $words What is shown.
	 */
	public static function time_element( $at, $words ) {
		return sprintf(
			'<time datetime="%s" title="%s">%s</time>',
			esc_attr( gmdate( 'c', $at ) ),
			esc_attr( (string) wp_date( get_option( 'date_format' ) . ' ' . get_option( 'time_format' ), $at ) ),
			esc_html( $words )
		);
	}
}
