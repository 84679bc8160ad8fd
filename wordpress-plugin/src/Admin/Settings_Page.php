<?php
/**
 * Settings → Sitebeam, built on the Settings API.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Settings → Sitebeam, built on the Settings API.
 */
final class Settings_Page {

	const SLUG = 'sitebeam';

	/** The network admin's form posts to network/edit.php?action=sitebeam. */
	const NETWORK_SAVE_ACTION = 'sitebeam';

	/** On multisite the settings are the network's: only a super admin may change them or test them. */
	public static function capability() {
		return is_multisite() ? 'manage_network_options' : 'manage_options';
	}

	/**
	 * The settings page’s address.
	 */
	public static function url() {
		return is_multisite() ? network_admin_url( 'settings.php?page=' . self::SLUG ) : admin_url( 'options-general.php?page=' . self::SLUG );
	}

	/** Where the settings form posts. */
	public static function form_action() {
		return is_multisite() ? network_admin_url( 'edit.php?action=' . self::NETWORK_SAVE_ACTION ) : admin_url( 'options.php' );
	}

	/**
	 * Adds Settings → Sitebeam on a single site.
	 */
	public static function action_admin_menu() {
		if ( ! is_multisite() ) {
			add_options_page( __( 'Sitebeam', 'sitebeam' ), __( 'Sitebeam', 'sitebeam' ), self::capability(), self::SLUG, array( self::class, 'render' ) );
		}
	}

	/**
	 * Adds Settings → Sitebeam to the network admin.
	 */
	public static function action_network_admin_menu() {
		add_submenu_page( 'settings.php', __( 'Sitebeam', 'sitebeam' ), __( 'Sitebeam', 'sitebeam' ), self::capability(), self::SLUG, array( self::class, 'render' ) );
	}

	/**
	 * Saves the network's settings: options.php only writes a site's options. update_site_option() runs the
	 * sanitize callback register_setting() gave the option, as options.php would.
	 */
	public static function action_network_save() {
		check_admin_referer( self::SLUG . '-options' );
		if ( ! current_user_can( self::capability() ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to manage Sitebeam.', 'sitebeam' ), 403 );
		}
		$posted = isset( $_POST[ Settings::OPTION ] ) ? wp_unslash( $_POST[ Settings::OPTION ] ) : array(); // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- sanitized by Settings_Sanitizer through sanitize_option.
		Token_Store::save( is_array( $posted ) ? $posted : array() );
		Settings::write( Settings::OPTION, is_array( $posted ) ? $posted : array() );
		if ( ! get_settings_errors( Settings::OPTION ) ) {
			add_settings_error( Settings::OPTION, 'settings_updated', __( 'Settings saved.', 'sitebeam' ), 'success' );
		}
		set_transient( 'settings_errors', get_settings_errors(), 30 );
		wp_safe_redirect( add_query_arg( 'settings-updated', 'true', self::url() ) );
		exit;
	}

	/**
	 * Registers the option, its sanitizer, the sections and the fields.
	 */
	public static function action_admin_init() {
		register_setting(
			self::SLUG,
			Settings::OPTION,
			array(
				'type'              => 'array',
				'sanitize_callback' => array( Settings_Sanitizer::class, 'sanitize' ),
				'show_in_rest'      => false,
			)
		);
		$sections = array(
			'connection' => __( 'Connection', 'sitebeam' ),
			'tracker'    => __( 'Tracker', 'sitebeam' ),
			'mail'       => __( 'Site mail', 'sitebeam' ),
			'contact'    => __( 'Contact form', 'sitebeam' ),
			'chat'       => __( 'Chat', 'sitebeam' ),
		);
		foreach ( $sections as $id => $title ) {
			add_settings_section( 'sitebeam_' . $id, $title, '__return_false', self::SLUG );
		}
		foreach ( Settings_Fields::all() as $key => $field ) {
			add_settings_field(
				'sitebeam_' . $key,
				$field['label'],
				array( Settings_Fields::class, 'render' ),
				self::SLUG,
				'sitebeam_' . $field['section'],
				array(
					'key'       => $key,
					'label_for' => in_array( $field['type'], Settings_Fields::GROUPS, true ) ? null : 'sitebeam-' . $key,
				)
			);
		}
	}

	/**
	 * Adds a Settings link to the plugin’s row on the Plugins page.
	 *
	 * @param string[] $links Plugin list action links.
	 * @return string[]
	 */
	public static function filter_action_links( $links ) {
		array_unshift( $links, sprintf( '<a href="%s">%s</a>', esc_url( self::url() ), esc_html__( 'Settings', 'sitebeam' ) ) );
		return $links;
	}

	/**
	 * Prints the settings page.
	 */
	public static function render() {
		if ( ! current_user_can( self::capability() ) ) {
			return;
		}
		include SITEBEAM_PLUGIN_DIR . '/templates/settings-page.php';
	}
}
