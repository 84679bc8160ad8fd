<?php
/**
 * The contact form's anti-CSRF token.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The contact form's anti-CSRF token.
 */
final class Form_Nonce {

	const ACTION = 'sitebeam_contact';
	const FIELD  = 'sitebeam_nonce';

	/**
	 * Created for the anonymous user even when someone is logged in: the widget posts without
	 * WordPress's X-WP-Nonce header, so the REST API always handles the post as user 0.
	 */
	public static function create() {
		$user_id = get_current_user_id();
		if ( 0 === $user_id ) {
			return wp_create_nonce( self::ACTION );
		}
		wp_set_current_user( 0 );
		$nonce = wp_create_nonce( self::ACTION );
		wp_set_current_user( $user_id );
		return $nonce;
	}

	/**
	 * Whether a submitted nonce is valid.
	 *
	 * @param string $nonce Submitted value.
	 */
	public static function verify( $nonce ) {
		return false !== wp_verify_nonce( (string) $nonce, self::ACTION );
	}
}
