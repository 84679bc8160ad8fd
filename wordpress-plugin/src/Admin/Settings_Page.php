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

final class Settings_Page {

	const SLUG       = 'sitebeam';
	const CAPABILITY = 'manage_options';

	public static function url() {
		return admin_url( 'options-general.php?page=' . self::SLUG );
	}

	public static function action_admin_menu() {
		add_options_page( __( 'Sitebeam', 'sitebeam' ), __( 'Sitebeam', 'sitebeam' ), self::CAPABILITY, self::SLUG, array( self::class, 'render' ) );
	}

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
					'label_for' => 'checkbox' === $field['type'] || 'roles' === $field['type'] ? null : 'sitebeam-' . $key,
				)
			);
		}
	}

	/**
	 * @param string[] $links Plugin list action links.
	 * @return string[]
	 */
	public static function filter_action_links( $links ) {
		array_unshift( $links, sprintf( '<a href="%s">%s</a>', esc_url( self::url() ), esc_html__( 'Settings', 'sitebeam' ) ) );
		return $links;
	}

	public static function render() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		include SITEBEAM_PLUGIN_DIR . '/templates/settings-page.php';
	}
}
