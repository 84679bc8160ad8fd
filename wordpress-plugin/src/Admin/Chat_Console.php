<?php
/**
 * Sitebeam → Chat: the site's team picks any model the instance lists, loads it, and prompts it with any prompt
 * settings, through the console's REST routes (the token never reaches the page).
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Api_Messages;
use Sitebeam\Chat\Chat_Capability;
use Sitebeam\Chat\Model_List;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Sitebeam → Chat.
 */
final class Chat_Console {

	const SLUG          = 'sitebeam-chat';
	const SCRIPT_HANDLE = 'sitebeam-chat-console';

	/**
	 * Adds the Sitebeam menu with its Chat page, and on a single site a link to the settings for those who manage them.
	 */
	public static function action_admin_menu() {
		$hook = add_menu_page( __( 'Sitebeam chat', 'sitebeam' ), __( 'Sitebeam', 'sitebeam' ), Chat_Capability::CAPABILITY, self::SLUG, array( self::class, 'render' ), 'dashicons-format-chat' );
		add_submenu_page( self::SLUG, __( 'Sitebeam chat', 'sitebeam' ), __( 'Chat', 'sitebeam' ), Chat_Capability::CAPABILITY, self::SLUG, array( self::class, 'render' ) );
		if ( ! is_multisite() ) {
			add_submenu_page( self::SLUG, __( 'Sitebeam', 'sitebeam' ), __( 'Settings', 'sitebeam' ), Settings_Page::capability(), 'options-general.php?page=' . Settings_Page::SLUG );
		}
		add_action( 'admin_print_scripts-' . $hook, array( self::class, 'enqueue' ) );
	}

	/**
	 * The console's script, with WordPress's REST client (which sends the REST nonce).
	 */
	public static function enqueue() {
		wp_enqueue_script( self::SCRIPT_HANDLE, plugins_url( 'assets/admin/chat-console.js', SITEBEAM_PLUGIN_FILE ), array( 'wp-api-fetch', 'wp-i18n' ), SITEBEAM_VERSION, true );
		wp_set_script_translations( self::SCRIPT_HANDLE, 'sitebeam', SITEBEAM_PLUGIN_DIR . '/languages' );
	}

	/**
	 * Prints the page.
	 */
	public static function render() {
		if ( ! current_user_can( Chat_Capability::CAPABILITY ) ) {
			return;
		}
		$models  = Model_List::get();
		$problem = is_wp_error( $models ) ? Api_Messages::describe( $models ) : '';
		$models  = is_wp_error( $models ) ? array() : $models;
		include SITEBEAM_PLUGIN_DIR . '/templates/chat-console.php';
	}
}
