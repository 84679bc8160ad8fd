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
final class Send_Log_Privacy {

	const ID = 'sitebeam-send-log';

	/**
	 * Adds the exporter.
	 *
	 * @param array<string, array<string, mixed>> $exporters Registered exporters.
	 * @return array<string, array<string, mixed>>
	 */
	public static function filter_exporters( $exporters ) {
		$exporters[ self::ID ] = array(
			'exporter_friendly_name' => __( 'Sitebeam send log', 'sitebeam' ),
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
			'eraser_friendly_name' => __( 'Sitebeam send log', 'sitebeam' ),
			'callback'             => array( self::class, 'erase' ),
		);
		return $erasers;
	}

	/**
	 * The log's entries that name the address, as export items: each names that address only, never another
	 * recipient of the same mail (Cc, Bcc).
	 *
	 * @param string $email_address The address asked for.
	 * @return array{data: array<int, array<string, mixed>>, done: bool}
	 */
	public static function export( $email_address ) {
		$items = array();
		foreach ( Send_Log::entries_for( (string) $email_address ) as $index => $entry ) {
			$items[] = array(
				'group_id'          => self::ID,
				'group_label'       => __( 'Sitebeam send log', 'sitebeam' ),
				'group_description' => __( 'Emails this site sent through the Sitebeam API to this address (the last sends the plugin keeps, never their bodies).', 'sitebeam' ),
				'item_id'           => self::ID . '-' . $entry['time'] . '-' . $index,
				'data'              => array(
					array(
						'name'  => __( 'Sent', 'sitebeam' ),
						'value' => wp_date( 'Y-m-d H:i:s', (int) $entry['time'] ),
					),
					array(
						'name'  => __( 'Recipient', 'sitebeam' ),
						'value' => implode( ', ', $entry['recipients'] ),
					),
					array(
						'name'  => __( 'Subject', 'sitebeam' ),
						'value' => $entry['subject'],
					),
					array(
						'name'  => __( 'Result', 'sitebeam' ),
						'value' => $entry['result'],
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
	 * Removes the address from the log: its entries, never another recipient's.
	 *
	 * @param string $email_address The address to erase.
	 * @return array{items_removed: bool, items_retained: bool, messages: string[], done: bool}
	 */
	public static function erase( $email_address ) {
		return array(
			'items_removed'  => Send_Log::forget( (string) $email_address ) > 0,
			'items_retained' => false,
			'messages'       => array(),
			'done'           => true,
		);
	}
}
