<?php
/**
 * The contact form's fill-time ticket: `<issued_ms>.<sig>`, signed with a key derived from wp_salt(), so the
 * delay between showing the form and posting it is measured by the server, not by the visitor's clock.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Issues and checks fill-time tickets (contract/contact-protocol.md, "The fill-time ticket").
 */
final class Ticket {

	/**
	 * A ticket issued now, or at a given time.
	 *
	 * @param int|null $issued_ms Milliseconds since the epoch; null: now.
	 */
	public static function issue( $issued_ms = null ) {
		$issued_ms = null === $issued_ms ? self::now_ms() : (int) $issued_ms;
		return $issued_ms . '.' . self::sign( $issued_ms );
	}

	/**
	 * Whether a posted ticket is genuine, at least the minimum fill time old, and not expired.
	 *
	 * @param mixed $ticket The posted value.
	 */
	public static function is_valid( $ticket ) {
		if ( ! is_string( $ticket ) || ! preg_match( '/^(\d{1,16})\.([A-Za-z0-9_-]{43})$/D', $ticket, $parts ) ) {
			return false;
		}
		if ( ! hash_equals( self::sign( (int) $parts[1] ), $parts[2] ) ) {
			return false;
		}
		$age_ms = self::now_ms() - (int) $parts[1];
		return $age_ms >= self::min_fill_ms() && $age_ms <= Contract::CONTACT_TICKET_MAX_AGE_S * 1000;
	}

	/**
	 * The minimum fill time in milliseconds.
	 */
	public static function min_fill_ms() {
		/**
		 * Filters the contact form's minimum fill time.
		 *
		 * @param int $min_fill_ms Milliseconds between showing the form and posting it. Default 3000.
		 */
		return (int) apply_filters( 'sitebeam_contact_min_fill_ms', Contract::CONTACT_MIN_FILL_MS );
	}

	/**
	 * The base64url signature of an issue time.
	 *
	 * @param int $issued_ms Milliseconds since the epoch.
	 */
	private static function sign( $issued_ms ) {
		$key = hash_hmac( Contract::CONTACT_TICKET_HASH, 'sitebeam-contact-ticket-key', wp_salt( 'nonce' ) );
		$mac = hash_hmac( Contract::CONTACT_TICKET_HASH, Contract::CONTACT_TICKET_HMAC_PREFIX . $issued_ms, $key, true );
		return rtrim( strtr( base64_encode( $mac ), '+/', '-_' ), '=' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- base64url of the signature, as the protocol says.
	}

	/**
	 * Milliseconds since the epoch.
	 */
	private static function now_ms() {
		return (int) floor( microtime( true ) * 1000 );
	}
}
