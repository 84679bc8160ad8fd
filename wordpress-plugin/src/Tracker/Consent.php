<?php
/**
 * Whether the tracker waits for the visitor's consent, and the page script that gives it: the site
 * owner's "Wait for consent" setting, or the WP Consent API's `statistics` category when that plugin is active.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Tracker;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Whether the tracker waits for consent, and the script that passes the visitor's choice to it.
 */
final class Consent {

	/** The WP Consent API category page views belong to. */
	const CATEGORY = 'statistics';

	/**
	 * Declares the plugin compliant with the WP Consent API: it asks the API before tracking.
	 */
	public static function register() {
		add_filter( 'wp_consent_api_registered_' . plugin_basename( SITEBEAM_PLUGIN_FILE ), '__return_true' );
	}

	/** Whether the WP Consent API plugin is active. */
	public static function api_active() {
		return function_exists( 'wp_has_consent' );
	}

	/**
	 * Whether the tag waits for `sitebeam.consent(true)`.
	 *
	 * @param array<string, mixed> $settings Effective settings.
	 */
	public static function required( array $settings ) {
		return ! empty( $settings['wait_for_consent'] ) || self::api_active();
	}

	/**
	 * The script printed before the tag: the README's queue stub (calls made before the deferred tag
	 * has loaded are kept) and, with the WP Consent API, the visitor's `statistics` choice now and on
	 * every change. The cookie the API reads is the one a banner set; the tag itself stores nothing.
	 */
	public static function inline_script() {
		$script = 'window.sitebeam=window.sitebeam||{q:[],track:function(o){this.q.push(o)},consent:function(c){this.c=c}};';
		if ( ! self::api_active() ) {
			return $script;
		}
		$category = wp_json_encode( self::CATEGORY );
		$script  .= sprintf(
			'document.addEventListener("wp_listen_for_consent_change",function(e){if(e.detail&&%1$s in e.detail)window.sitebeam.consent(e.detail[%1$s]==="allow")});',
			$category
		);
		if ( wp_has_consent( self::CATEGORY ) ) {
			$script .= 'window.sitebeam.consent(true);';
		}
		return $script;
	}
}
