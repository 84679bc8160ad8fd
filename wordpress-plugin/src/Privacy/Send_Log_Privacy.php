<?php
/**
 * The send log in WordPress's privacy tools: Tools → Export Personal Data and Erase Personal Data.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Privacy;

use Sitebeam\Mail\Send_Log;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The send log in WordPress's privacy tools: Tools → Export Personal Data and Erase Personal Data.
 *
 * The log is one option of at most Send_Log::SIZE + Send_Log::UNDELIVERED_KEPT entries, so one page answers every
 * request.
 */
final class Send_Log_Privacy extends Personal_Data {

	const ID = 'sitebeam-send-log';

	/**
	 * The log's name on the privacy screens.
	 *
	 * @return string
	 */
	protected static function name() {
		return __( 'Sitebeam send log', 'sitebeam' );
	}

	/**
	 * What the log holds of an address.
	 *
	 * @return string
	 */
	protected static function description() {
		return __( 'Emails this site sent through the Sitebeam API to this address (the last sends the plugin keeps, never their bodies).', 'sitebeam' );
	}

	/**
	 * The log's entries that name the address: each names that address only, never another recipient of the same mail
	 * (Cc, Bcc).
	 *
	 * @param string $email_address The address asked for.
	 * @return array<int|string, array<string, string>>
	 */
	protected static function items_for( $email_address ) {
		$items = array();
		foreach ( Send_Log::entries_for( $email_address ) as $index => $entry ) {
			$items[ $entry['time'] . '-' . $index ] = array(
				__( 'Sent', 'sitebeam' )      => wp_date( 'Y-m-d H:i:s', (int) $entry['time'] ),
				__( 'Recipient', 'sitebeam' ) => implode( ', ', $entry['recipients'] ),
				__( 'Subject', 'sitebeam' )   => $entry['subject'],
				__( 'Result', 'sitebeam' )    => $entry['result'],
			);
		}
		return $items;
	}

	/**
	 * Removes the address from the log: its entries, never another recipient's.
	 *
	 * @param string $email_address The address to erase.
	 * @return int The entries removed.
	 */
	protected static function remove( $email_address ) {
		return Send_Log::forget( $email_address );
	}
}
