<?php
/**
 * The capability to use the chat console (Sitebeam → Chat): granted to administrators once, on activation or on the
 * first admin page after an upgrade, so a site that removes it keeps it removed.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The capability to use the chat console.
 */
final class Chat_Capability {

	const CAPABILITY = 'sitebeam_use_chat';

	/** Per site: the version of the plugin's capability grants this site has had. */
	const VERSION_OPTION = 'sitebeam_capabilities_version';
	const VERSION        = 1;

	/**
	 * Grants the capability to this site's administrators.
	 */
	public static function grant() {
		$role = get_role( 'administrator' );
		if ( $role ) {
			$role->add_cap( self::CAPABILITY );
		}
		update_option( self::VERSION_OPTION, self::VERSION );
	}

	/**
	 * On multisite the chat spends the network's token: only super admins use it, unless the network's settings
	 * extend it to each site's administrators (chat_site_admins). A site's roles keep the grant, so the setting
	 * takes effect both ways at once.
	 *
	 * @param string[] $caps    The primitive capabilities the capability needs.
	 * @param string   $cap     The capability checked.
	 * @param int      $user_id The user.
	 * @return string[]
	 */
	public static function filter_map_meta_cap( $caps, $cap, $user_id ) {
		if ( self::CAPABILITY !== $cap || ! is_multisite() || is_super_admin( $user_id ) || ! empty( Settings::get()['chat_site_admins'] ) ) {
			return $caps;
		}
		return array( 'do_not_allow' );
	}

	/**
	 * Grants it on a site that never had this version's grants (an upgrade; a network's other sites).
	 */
	public static function maybe_grant() {
		if ( (int) get_option( self::VERSION_OPTION, 0 ) < self::VERSION ) {
			self::grant();
		}
	}
}
