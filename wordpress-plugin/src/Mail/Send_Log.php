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
}
