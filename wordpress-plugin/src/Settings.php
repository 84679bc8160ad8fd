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

/**
 * The one accessor for the plugin's settings: stored values over defaults, wp-config.php constants over both.
 */
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

	/** Defined true in wp-config.php for local development: the instance may be on a private or loopback address. */
	const ALLOW_PRIVATE_HOSTS_CONSTANT = 'SITEBEAM_ALLOW_PRIVATE_HOSTS';

	/**
	 * Settings before the site owner changes any.
	 */
	public static function defaults() {
		return array(
			'api_url'          => '',
			'website'          => (string) wp_parse_url( home_url(), PHP_URL_HOST ),
			'tracker'          => true,
			'excluded_roles'   => array( 'administrator' ),
			'respect_dnt'      => true,
			'noscript'         => true,
			'keep_query'       => '',
			'wait_for_consent' => false,
			'route_mail'       => true,
			// Off: a mail the instance refuses for good is reported, never handed to PHP's mail() unasked. A site
			// that saved its settings keeps the choice it saved (the stored value wins over this default).
			'fallback'         => false,
			'contact_to'       => (string) get_option( 'admin_email' ),
			'contact_success'  => __( 'Thank you, your message has been sent.', 'sitebeam' ),
			'contact_consent'  => '',
			'contact_policy'   => '',
			'chat_enabled'     => false,
			'chat_models'      => array(),
			'chat_settings'    => array(),
			'chat_rate_limit'  => Contract::CHAT_RATE_LIMIT_COUNT,
			'chat_daily_limit' => Chat\Chat_Config::DEFAULT_DAILY_LIMIT,
			'chat_site_admins' => false,
			'chat_consent'     => '',
			'chat_policy'      => '',
			// The outbox (Mail\Outbox): how many hours a mail is tried, how much may wait, the contact messages'
			// share of that (percent), and how many days failed mail is kept.
			'outbox_lifetime'  => Contract::OUTBOX_LIFETIME_HOURS,
			'outbox_max_mails' => 1000,
			'outbox_max_mb'    => 50,
			'outbox_contacts'  => 50,
			'outbox_keep_days' => 30,
		);
	}

	/**
	 * Effective settings.
	 *
	 * @return array<string, mixed>
	 */
	public static function get() {
		$stored   = self::read( self::OPTION, array() );
		$settings = array_merge( self::defaults(), is_array( $stored ) ? $stored : array() );
		foreach ( self::CONSTANTS as $key => $constant ) {
			if ( defined( $constant ) ) {
				$settings[ $key ] = constant( $constant );
			}
		}
		// Prompt settings saved under a name the service does not read (num_beams) are sent under its own.
		$settings['chat_settings'] = Chat\Prompt_Settings::with_service_names( (array) $settings['chat_settings'] );
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

	/**
	 * The API token: the wp-config.php constant, else the stored one.
	 */
	public static function token() {
		if ( defined( self::TOKEN_CONSTANT ) ) {
			return (string) constant( self::TOKEN_CONSTANT );
		}
		return (string) self::read( self::TOKEN_OPTION, '' );
	}

	/**
	 * On multisite the settings are the network's (a token in wp-config.php applies network-wide, so its URL must
	 * not be a subsite administrator's choice); elsewhere they are the site's options.
	 *
	 * @param string $option  Option name.
	 * @param mixed  $fallback Value when the option does not exist.
	 * @return mixed
	 */
	public static function read( $option, $fallback = false ) {
		return is_multisite() ? get_site_option( $option, $fallback ) : get_option( $option, $fallback );
	}

	/**
	 * Writes a setting where read() finds it; the token is never autoloaded.
	 *
	 * @param string $option Option name.
	 * @param mixed  $value  Value.
	 */
	public static function write( $option, $value ) {
		return is_multisite() ? update_site_option( $option, $value ) : update_option( $option, $value, self::TOKEN_OPTION !== $option );
	}

	/**
	 * Whether the token comes from wp-config.php but the URL does not: whoever may edit the settings (a subsite
	 * administrator on multisite) could then send the host's token to a URL of theirs.
	 */
	public static function token_needs_fixed_url() {
		return self::is_fixed( 'api_token' ) && ! self::is_fixed( 'api_url' );
	}

	/**
	 * Whether wp-config.php allows an instance on a private or loopback address.
	 */
	public static function allows_private_hosts() {
		return defined( self::ALLOW_PRIVATE_HOSTS_CONSTANT ) && true === constant( self::ALLOW_PRIVATE_HOSTS_CONSTANT );
	}

	/**
	 * Whether a token is set.
	 */
	public static function has_token() {
		return '' !== self::token();
	}

	/**
	 * Whether wp-config.php fixes a setting.
	 *
	 * @param string $key A setting key, or 'api_token'.
	 */
	public static function is_fixed( $key ) {
		if ( 'api_token' === $key ) {
			return defined( self::TOKEN_CONSTANT );
		}
		return isset( self::CONSTANTS[ $key ] ) && defined( self::CONSTANTS[ $key ] );
	}

	/** Creates the options with the right autoload flags, so no front-end page ever queries a missing one. */
	public static function create_options() {
		if ( is_multisite() ) {
			add_site_option( self::OPTION, array() );
			add_site_option( self::TOKEN_OPTION, '' );
			return;
		}
		add_option( self::OPTION, array(), '', true );
		add_option( self::TOKEN_OPTION, '', '', false );
	}

	/**
	 * Whether a base URL may carry the token (see Base_Url).
	 *
	 * @param string $url Candidate base URL.
	 */
	public static function is_allowed_api_url( $url ) {
		return null === Base_Url::problem( $url );
	}
}
