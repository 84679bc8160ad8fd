<?php
/**
 * One store of the plugin's personal data in WordPress's privacy tools: Tools → Export Personal Data and Erase
 * Personal Data.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Privacy;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One store of the plugin's personal data in WordPress's privacy tools: its exporter and its eraser, registered under
 * the store's ID, the export's items built from what the store says of one address.
 *
 * Every store the plugin keeps is bounded, so one page answers every request.
 */
abstract class Personal_Data {

	/** The exporter's and the eraser's id, and the export's group. */
	const ID = '';

	/**
	 * The store's name on the privacy screens and in the export.
	 *
	 * @return string
	 */
	abstract protected static function name();

	/**
	 * What the export's group holds, as the export file describes it.
	 *
	 * @return string
	 */
	abstract protected static function description();

	/**
	 * The store's items that concern the address, each by its id within the store, as translated label => value.
	 *
	 * @param string $email_address The address asked for.
	 * @return array<int|string, array<string, string>>
	 */
	abstract protected static function items_for( $email_address );

	/**
	 * Removes what concerns the address from the store.
	 *
	 * @param string $email_address The address to erase.
	 * @return int How many items were removed.
	 */
	abstract protected static function remove( $email_address );

	/**
	 * Adds the exporter.
	 *
	 * @param array<string, array<string, mixed>> $exporters Registered exporters.
	 * @return array<string, array<string, mixed>>
	 */
	public static function filter_exporters( $exporters ) {
		$exporters[ static::ID ] = array(
			'exporter_friendly_name' => static::name(),
			'callback'               => array( static::class, 'export' ),
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
		$erasers[ static::ID ] = array(
			'eraser_friendly_name' => static::name(),
			'callback'             => array( static::class, 'erase' ),
		);
		return $erasers;
	}

	/**
	 * The items that concern the address, as export items.
	 *
	 * @param string $email_address The address asked for.
	 * @return array{data: array<int, array<string, mixed>>, done: bool}
	 */
	public static function export( $email_address ) {
		$items = array();
		foreach ( static::items_for( (string) $email_address ) as $item_id => $values ) {
			$data = array();
			foreach ( $values as $name => $value ) {
				$data[] = array(
					'name'  => $name,
					'value' => $value,
				);
			}
			$items[] = array(
				'group_id'          => static::ID,
				'group_label'       => static::name(),
				'group_description' => static::description(),
				'item_id'           => static::ID . '-' . $item_id,
				'data'              => $data,
			);
		}
		return array(
			'data' => $items,
			'done' => true,
		);
	}

	/**
	 * Removes what concerns the address.
	 *
	 * @param string $email_address The address to erase.
	 * @return array{items_removed: bool, items_retained: bool, messages: string[], done: bool}
	 */
	public static function erase( $email_address ) {
		return array(
			'items_removed'  => static::remove( (string) $email_address ) > 0,
			'items_retained' => false,
			'messages'       => array(),
			'done'           => true,
		);
	}
}
