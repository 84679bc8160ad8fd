<?php
/**
 * The models the instance lists, remembered for a few minutes: the settings page and the chat console show them on
 * every visit, and each listing is a request to the instance.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Api_Client;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The models the instance lists, remembered for a few minutes.
 */
final class Model_List {

	/** Where the list is remembered: a site transient on multisite, where the settings are the network's. */
	const TRANSIENT = 'sitebeam_models';

	const LIFETIME = 10 * MINUTE_IN_SECONDS;

	/**
	 * The configured instance's models: remembered ones if that instance, with that token, listed them lately.
	 *
	 * @return string[]|WP_Error The models, or why they could not be listed (never remembered).
	 */
	public static function get() {
		$client   = Api_Client::from_settings();
		$instance = $client->instance_key();
		$cached   = is_multisite() ? get_site_transient( self::TRANSIENT ) : get_transient( self::TRANSIENT );
		if ( is_array( $cached ) && ( $cached['instance'] ?? '' ) === $instance && is_array( $cached['models'] ?? null ) ) {
			return $cached['models'];
		}
		$models = $client->list_models();
		if ( ! is_wp_error( $models ) ) {
			$entry = array(
				'instance' => $instance,
				'models'   => $models,
			);
			if ( is_multisite() ) {
				set_site_transient( self::TRANSIENT, $entry, self::LIFETIME );
			} else {
				set_transient( self::TRANSIENT, $entry, self::LIFETIME );
			}
		}
		return $models;
	}

	/**
	 * Forgets the list, so the next visit asks the instance again.
	 */
	public static function forget() {
		if ( is_multisite() ) {
			delete_site_transient( self::TRANSIENT );
		} else {
			delete_transient( self::TRANSIENT );
		}
	}
}
