<?php
/**
 * A one-time admin notice that survives the redirect after an admin-post action.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A one-time admin notice that survives the redirect after an admin-post action.
 */
final class Notice {

	/**
	 * Keeps a notice for the current user’s next page.
	 *
	 * @param string $type    success|info|warning|error.
	 * @param string $message Text for people.
	 */
	public static function set( $type, $message ) {
		set_transient(
			self::key(),
			array(
				'type'    => $type,
				'message' => $message,
			),
			MINUTE_IN_SECONDS
		);
	}

	/**
	 * Prints and forgets the current user’s notice, if any.
	 */
	public static function show() {
		$notice = get_transient( self::key() );
		if ( ! is_array( $notice ) ) {
			return;
		}
		delete_transient( self::key() );
		printf(
			'<div class="notice notice-%s is-dismissible sitebeam-notice"><p>%s</p></div>',
			esc_attr( in_array( $notice['type'], array( 'success', 'info', 'warning' ), true ) ? $notice['type'] : 'error' ),
			esc_html( $notice['message'] )
		);
	}

	/**
	 * The transient holding the current user’s notice.
	 */
	private static function key() {
		return 'sitebeam_notice_' . get_current_user_id();
	}
}
