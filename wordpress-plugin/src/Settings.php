<?php
/**
 * The one accessor for the plugin's settings: stored values over defaults, wp-config.php constants over both.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

final class Settings {

	/** Read on every front-end page, so autoloaded. */
	const OPTION = 'sitebeam_settings';

	/** Secret: never autoloaded, never printed. */
	const TOKEN_OPTION = 'sitebeam_api_token';

	/** Setting key => wp-config.php constant that fixes it. */
	const CONSTANTS = array(
		'api_url'    => 'SITEBEAM_API_URL',
		'website'    => 'SITEBEAM_WEBSITE',
		'route_mail' => 'SITEBEAM_ROUTE_MAIL',
		'contact_to' => 'SITEBEAM_CONTACT_TO',
	);

	const TOKEN_CONSTANT = 'SITEBEAM_API_TOKEN';

	public static function defaults() {
		return array(
			'api_url'         => '',
			'website'         => (string) wp_parse_url( home_url(), PHP_URL_HOST ),
			'tracker'         => true,
			'excluded_roles'  => array( 'administrator' ),
			'respect_dnt'     => true,
			'noscript'        => true,
			'route_mail'      => true,
			'fallback'        => true,
			'contact_to'      => (string) get_option( 'admin_email' ),
			'contact_success' => __( 'Thank you, your message has been sent.', 'sitebeam' ),
		);
	}

	/**
	 * Effective settings.
	 *
	 * @return array<string, mixed>
	 */
	public static function get() {
		$stored   = get_option( self::OPTION, array() );
		$settings = array_merge( self::defaults(), is_array( $stored ) ? $stored : array() );
		foreach ( self::CONSTANTS as $key => $constant ) {
			if ( defined( $constant ) ) {
				$settings[ $key ] = constant( $constant );
			}
		}
		if ( '' === $settings['website'] ) {
			$settings['website'] = self::defaults()['website'];
		}
		if ( '' === $settings['contact_to'] ) {
			$settings['contact_to'] = self::defaults()['contact_to'];
		}
		/**
		 * Filters the effective Sitebeam settings.
		 *
		 * @param array $settings Settings after defaults and wp-config.php constants.
		 */
		return apply_filters( 'sitebeam_settings', $settings );
	}

	public static function token() {
		if ( defined( self::TOKEN_CONSTANT ) ) {
			return (string) constant( self::TOKEN_CONSTANT );
		}
		return (string) get_option( self::TOKEN_OPTION, '' );
	}

	public static function has_token() {
		return '' !== self::token();
	}

	public static function is_fixed( $key ) {
		if ( 'api_token' === $key ) {
			return defined( self::TOKEN_CONSTANT );
		}
		return isset( self::CONSTANTS[ $key ] ) && defined( self::CONSTANTS[ $key ] );
	}

	/** Creates the options with the right autoload flags, so no front-end page ever queries a missing one. */
	public static function create_options() {
		add_option( self::OPTION, array(), '', 'yes' );
		add_option( self::TOKEN_OPTION, '', '', 'no' );
	}

	/**
	 * Whether a base URL may carry the token: https, or http to this machine.
	 *
	 * @param string $url Candidate base URL.
	 */
	public static function is_allowed_api_url( $url ) {
		$parts = wp_parse_url( $url );
		if ( ! is_array( $parts ) || empty( $parts['host'] ) || empty( $parts['scheme'] ) ) {
			return false;
		}
		$scheme = strtolower( $parts['scheme'] );
		if ( 'https' === $scheme ) {
			return true;
		}
		return 'http' === $scheme && in_array( strtolower( $parts['host'] ), array( 'localhost', '127.0.0.1', '[::1]' ), true );
	}
}
