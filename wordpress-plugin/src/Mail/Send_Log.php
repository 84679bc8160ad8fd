<?php
/**
 * The last sends, for the settings page: time, recipient, subject and result, never bodies; one entry per recipient
 * (each gets their own copy through the API), so an entry names no one but its recipient and the privacy tools
 * never have to hide a Cc or a Bcc from another.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The last sends, for the settings page: time, recipients, subject and result, never bodies.
 */
final class Send_Log {

	const OPTION      = 'sitebeam_mail_log';
	const SIZE        = 50;
	const SENT        = 'sent';
	const FAILED      = 'failed';
	const FALLEN_BACK = 'fallback';
	const QUEUED      = 'queued';

	/**
	 * Records one send: an entry for each recipient, in their order, above the older ones.
	 *
	 * @param string[] $recipients Addresses.
	 * @param string   $subject    Subject line.
	 * @param string   $result     One of the result constants.
	 * @param string   $detail     Why it failed, for people.
	 */
	public static function record( array $recipients, $subject, $result, $detail = '' ) {
		$sent = array();
		foreach ( array_values( $recipients ) as $recipient ) {
			$sent[] = array(
				'time'       => time(),
				'recipients' => array( (string) $recipient ),
				'subject'    => (string) $subject,
				'result'     => $result,
				'detail'     => (string) $detail,
			);
		}
		if ( array() !== $sent ) {
			update_option( self::OPTION, array_slice( array_merge( $sent, self::entries() ), 0, self::SIZE ), false );
		}
	}

	/**
	 * The recorded sends, newest first.
	 *
	 * @return array<int, array{time: int, recipients: string[], subject: string, result: string, detail: string}> Newest first.
	 */
	public static function entries() {
		$stored  = get_option( self::OPTION, array() );
		$entries = array();
		// An entry an earlier version recorded for several recipients reads as one entry each, and is stored so at
		// the next write.
		foreach ( is_array( $stored ) ? $stored : array() as $entry ) {
			foreach ( (array) ( $entry['recipients'] ?? array() ) as $recipient ) {
				$entries[] = array_merge( $entry, array( 'recipients' => array( (string) $recipient ) ) );
			}
		}
		return $entries;
	}

	/**
	 * The recorded sends to an address, newest first, each naming that address only: an entry an earlier version
	 * recorded for several recipients at once keeps the others to itself.
	 *
	 * @param string $address A bare address; compared without case.
	 * @return array<int, array{time: int, recipients: string[], subject: string, result: string, detail: string}>
	 */
	public static function entries_for( $address ) {
		$found = array();
		foreach ( self::entries() as $entry ) {
			$own = self::own( $entry, $address );
			if ( array() !== $own ) {
				$found[] = array_merge( $entry, array( 'recipients' => $own ) );
			}
		}
		return $found;
	}

	/**
	 * Removes an address from the recorded sends: its entries go, and an entry an earlier version recorded for several
	 * recipients keeps the others.
	 *
	 * @param string $address A bare address; compared without case.
	 * @return int How many times the address was removed.
	 */
	public static function forget( $address ) {
		$removed = 0;
		$kept    = array();
		foreach ( self::entries() as $entry ) {
			$own      = self::own( $entry, $address );
			$removed += count( $own );
			$others   = array_values( array_diff( (array) ( $entry['recipients'] ?? array() ), $own ) );
			if ( array() === $own ) {
				$kept[] = $entry;
			} elseif ( array() !== $others ) {
				$kept[] = array_merge( $entry, array( 'recipients' => $others ) );
			}
		}
		if ( $removed > 0 ) {
			update_option( self::OPTION, $kept, false );
		}
		return $removed;
	}

	/**
	 * An entry's recipients that are the address, bare or as `Name <address>`.
	 *
	 * @param array<string, mixed> $entry   One entry.
	 * @param string               $address A bare address.
	 * @return string[]
	 */
	private static function own( $entry, $address ) {
		$own = array();
		foreach ( (array) ( $entry['recipients'] ?? array() ) as $recipient ) {
			$bare = preg_match( '/<([^<>]+)>\s*$/', (string) $recipient, $match ) ? $match[1] : (string) $recipient;
			if ( 0 === strcasecmp( trim( $bare ), trim( $address ) ) ) {
				$own[] = (string) $recipient;
			}
		}
		return $own;
	}
}
