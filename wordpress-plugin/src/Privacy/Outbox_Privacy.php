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
final class Outbox_Privacy {

	const ID = 'sitebeam-outbox';

	/**
	 * Adds the exporter.
	 *
	 * @param array<string, array<string, mixed>> $exporters Registered exporters.
	 * @return array<string, array<string, mixed>>
	 */
	public static function filter_exporters( $exporters ) {
		$exporters[ self::ID ] = array(
			'exporter_friendly_name' => __( 'Sitebeam outbox', 'sitebeam' ),
			'callback'               => array( self::class, 'export' ),
		);
		return $exporters;
	}

	/**
	 * Adds the eraser.
	 *
	 * @param array<string, array<string, mixed>> $erasers Registered erasers.
	 * @return array<string, array<string, mixed>>
	 */
	public static function filter_erasers( $erasers ) {
		$erasers[ self::ID ] = array(
			'eraser_friendly_name' => __( 'Sitebeam outbox', 'sitebeam' ),
			'callback'             => array( self::class, 'erase' ),
		);
		return $erasers;
	}

	/**
	 * The mail to the address that waits in the outbox, or was given up, as export items.
	 *
	 * @param string $email_address The address asked for.
	 * @return array{data: array<int, array<string, mixed>>, done: bool}
	 */
	public static function export( $email_address ) {
		$items = array();
		foreach ( Outbox::rows_for( (string) $email_address ) as $row ) {
			$message = json_decode( (string) $row['message'], true );
			$items[] = array(
				'group_id'          => self::ID,
				'group_label'       => __( 'Sitebeam outbox', 'sitebeam' ),
				'group_description' => __( 'Emails to this address, and contact-form messages sent from it, that this site accepted but the Sitebeam instance has not taken yet (or that were given up).', 'sitebeam' ),
				'item_id'           => self::ID . '-' . $row['id'],
				'data'              => array(
					array(
						'name'  => __( 'Written', 'sitebeam' ),
						'value' => wp_date( 'Y-m-d H:i:s', (int) $row['created_at'] ),
					),
					array(
						'name'  => __( 'Recipient', 'sitebeam' ),
						'value' => $row['recipient'],
					),
					array(
						'name'  => __( 'Subject', 'sitebeam' ),
						'value' => $row['subject'],
					),
					array(
						'name'  => __( 'Content', 'sitebeam' ),
						'value' => (string) ( $message[ Contract::EMAIL_FIELD_CONTENT ] ?? '' ),
					),
					array(
						'name'  => __( 'State', 'sitebeam' ),
						'value' => $row['state'],
					),
				),
			);
		}
		return array(
			'data' => $items,
			'done' => true,
		);
	}

	/**
	 * Deletes the mail to the address from the outbox.
	 *
	 * @param string $email_address The address to erase.
	 * @return array{items_removed: bool, items_retained: bool, messages: string[], done: bool}
	 */
	public static function erase( $email_address ) {
		$removed = Outbox::delete_rows( array_column( Outbox::rows_for( (string) $email_address ), 'id' ), false );
		return array(
			'items_removed'  => $removed > 0,
			'items_retained' => false,
			'messages'       => array(),
			'done'           => true,
		);
	}
}
