<?php
/**
 * The privacy exporter and eraser of the outbox: mail waiting for (or given up on) an address, and the contact messages
 * its owner sent, body included.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Privacy;

use Sitebeam\Contract;
use Sitebeam\Mail\Outbox;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The privacy exporter and eraser of the outbox: mail waiting for (or given up on) an address, body included.
 *
 * The outbox is bounded (Outbox::limits()), so one page answers every request.
 */
final class Outbox_Privacy extends Personal_Data {

	const ID = 'sitebeam-outbox';

	/**
	 * The outbox's name on the privacy screens.
	 *
	 * @return string
	 */
	protected static function name() {
		return __( 'Sitebeam outbox', 'sitebeam' );
	}

	/**
	 * What the outbox holds of an address.
	 *
	 * @return string
	 */
	protected static function description() {
		return __( 'Emails to this address, and contact-form messages sent from it, that this site accepted but the Sitebeam instance has not taken yet (or that were given up).', 'sitebeam' );
	}

	/**
	 * The mail to the address that waits in the outbox, or was given up, by row id.
	 *
	 * @param string $email_address The address asked for.
	 * @return array<int|string, array<string, string>>
	 */
	protected static function items_for( $email_address ) {
		$items = array();
		foreach ( Outbox::rows_for( $email_address ) as $row ) {
			$message             = json_decode( (string) $row['message'], true );
			$items[ $row['id'] ] = array(
				__( 'Written', 'sitebeam' )   => wp_date( 'Y-m-d H:i:s', (int) $row['created_at'] ),
				__( 'Recipient', 'sitebeam' ) => $row['recipient'],
				__( 'Subject', 'sitebeam' )   => $row['subject'],
				__( 'Content', 'sitebeam' )   => (string) ( $message[ Contract::EMAIL_FIELD_CONTENT ] ?? '' ),
				__( 'State', 'sitebeam' )     => $row['state'],
			);
		}
		return $items;
	}

	/**
	 * Deletes the mail to the address from the outbox.
	 *
	 * @param string $email_address The address to erase.
	 * @return int The rows deleted.
	 */
	protected static function remove( $email_address ) {
		return Outbox::delete_rows( array_column( Outbox::rows_for( $email_address ), 'id' ), false );
	}
}
