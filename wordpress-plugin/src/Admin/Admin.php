<?php
/**
 * Admin-side hooks, registered only in wp-admin.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Chat\Chat_Capability;
use Sitebeam\Privacy\Policy_Text;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Admin-side hooks, registered only in wp-admin.
 */
final class Admin {

	/**
	 * Registers the admin hooks.
	 */
	public static function boot() {
		add_action( 'admin_menu', array( Settings_Page::class, 'action_admin_menu' ) );
		add_action( 'admin_init', array( Settings_Page::class, 'action_admin_init' ) );
		add_action( 'admin_init', array( Chat_Capability::class, 'maybe_grant' ) );
		add_action( 'admin_init', array( Policy_Text::class, 'action_admin_init' ) );
		add_action( 'admin_menu', array( Chat_Console::class, 'action_admin_menu' ) );
		add_action( 'network_admin_menu', array( Settings_Page::class, 'action_network_admin_menu' ) );
		add_action( 'network_admin_edit_' . Settings_Page::NETWORK_SAVE_ACTION, array( Settings_Page::class, 'action_network_save' ) );
		add_action( 'admin_action_update', array( Token_Store::class, 'action_admin_action_update' ) );
		add_filter( 'option_page_capability_' . Settings_Page::SLUG, array( Token_Store::class, 'filter_option_page_capability' ) );
		add_action( 'admin_post_' . Connection_Actions::TEST_CONNECTION, array( Connection_Actions::class, 'action_test_connection' ) );
		add_action( 'admin_post_' . Connection_Actions::SEND_TEST_EMAIL, array( Connection_Actions::class, 'action_send_test_email' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( SITEBEAM_PLUGIN_FILE ), array( Settings_Page::class, 'filter_action_links' ) );
	}
}
