<?php
/**
 * The last sends, for the settings page: time, recipients, subject and result, never bodies.
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
	 * Records one send.
	 *
	 * @param string[] $recipients Addresses.
	 * @param string   $subject    Subject line.
	 * @param string   $result     One of the result constants.
	 * @param string   $detail     Why it failed, for people.
	 */
	public static function record( array $recipients, $subject, $result, $detail = '' ) {
		$entries = self::entries();
		array_unshift(
			$entries,
			array(
				'time'       => time(),
				'recipients' => array_values( $recipients ),
				'subject'    => (string) $subject,
				'result'     => $result,
				'detail'     => (string) $detail,
			)
		);
		update_option( self::OPTION, array_slice( $entries, 0, self::SIZE ), false );
	}

	/**
	 * The recorded sends, newest first.
	 *
	 * @return array<int, array{time: int, recipients: string[], subject: string, result: string, detail: string}> Newest first.
	 */
	public static function entries() {
		$entries = get_option( self::OPTION, array() );
		return is_array( $entries ) ? $entries : array();
	}

	/**
	 * The recorded sends to an address, newest first.
	 *
	 * @param string $address A bare address; compared without case.
	 * @return array<int, array{time: int, recipients: string[], subject: string, result: string, detail: string}>
	 */
	public static function entries_for( $address ) {
		return array_values(
			array_filter(
				self::entries(),
				static function ( $entry ) use ( $address ) {
					return self::names( $entry, $address );
				}
			)
		);
	}

	/**
	 * Removes every recorded send to an address.
	 *
	 * @param string $address A bare address; compared without case.
	 * @return int How many entries were removed.
	 */
	public static function forget( $address ) {
		$entries = self::entries();
		$kept    = array_values(
			array_filter(
				$entries,
				static function ( $entry ) use ( $address ) {
					return ! self::names( $entry, $address );
				}
			)
		);
		if ( count( $kept ) !== count( $entries ) ) {
			update_option( self::OPTION, $kept, false );
		}
		return count( $entries ) - count( $kept );
	}

	/**
	 * Whether an entry's recipients include the address, bare or as `Name <address>`.
	 *
	 * @param array<string, mixed> $entry   One entry.
	 * @param string               $address A bare address.
	 */
	private static function names( $entry, $address ) {
		foreach ( (array) ( $entry['recipients'] ?? array() ) as $recipient ) {
			$bare = preg_match( '/<([^<>]+)>\s*$/', (string) $recipient, $match ) ? $match[1] : (string) $recipient;
			if ( 0 === strcasecmp( trim( $bare ), trim( $address ) ) ) {
				return true;
			}
		}
		return false;
	}
}
