<?php
/**
 * Writes the API token the settings form posts, outside the settings' sanitize callback: that callback runs on every
 * write of the option (update_option() on any site of a network, a plugin, WP-CLI), and a subsite administrator's
 * save of the site's own sitebeam_settings must never overwrite the network's token.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Writes the API token the settings form posts, outside the settings' sanitize callback.
 */
final class Token_Store {

	/**
	 * Options.php on a single site: the form of Settings → Sitebeam, with its nonce, from a user who may manage the
	 * plugin. Runs before options.php writes the settings (admin.php fires admin_action_update first).
	 */
	public static function action_admin_action_update() {
		// phpcs:ignore WordPress.Security.NonceVerification.Missing -- which form this is; its nonce is checked below.
		if ( is_multisite() || ! isset( $_POST['option_page'] ) || Settings_Page::SLUG !== $_POST['option_page'] ) {
			return;
		}
		check_admin_referer( Settings_Page::SLUG . '-options' );
		if ( ! current_user_can( Settings_Page::capability() ) ) {
			return;
		}
		$posted = isset( $_POST[ Settings::OPTION ] ) ? wp_unslash( $_POST[ Settings::OPTION ] ) : array(); // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- save() sanitizes the one field it reads.
		self::save( is_array( $posted ) ? $posted : array() );
	}

	/**
	 * Options.php lets whoever has the option page's capability save it: the plugin's, not manage_options, so that
	 * on a network a subsite administrator cannot post the form to their site's options.php.
	 */
	public static function filter_option_page_capability() {
		return Settings_Page::capability();
	}

	/**
	 * Saves the token typed in the form; the field is never filled in, so empty means "keep the stored token". A
	 * token fixed in wp-config.php is never written.
	 *
	 * @param array<string, mixed> $posted The posted `sitebeam_settings`, after a capability and nonce check.
	 */
	public static function save( array $posted ) {
		if ( Settings::is_fixed( 'api_token' ) ) {
			return;
		}
		$token = isset( $posted['api_token'] ) ? trim( sanitize_text_field( (string) $posted['api_token'] ) ) : '';
		if ( '' !== $token ) {
			Settings::write( Settings::TOKEN_OPTION, $token );
		} elseif ( ! empty( $posted['remove_token'] ) ) {
			Settings::write( Settings::TOKEN_OPTION, '' );
		}
	}
}
