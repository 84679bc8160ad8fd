<?php
/**
 * The settings page's "Test connection" and "Send test email" buttons.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Contract;
use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The settings page's "Test connection" and "Send test email" buttons.
 */
final class Connection_Actions {

	const TEST_CONNECTION = 'sitebeam_test_connection';
	const SEND_TEST_EMAIL = 'sitebeam_send_test_email';

	/**
	 * Checks the URL, the token, email and AI without sending; says how email and AI each stand.
	 */
	public static function action_test_connection() {
		self::authorize( self::TEST_CONNECTION );
		$result = Api_Client::from_settings()->check_connection();
		if ( null === $result['ai'] ) {
			Notice::set( 'error', Api_Messages::describe( $result['email'] ) );
			self::back();
		}
		$email = true === $result['email']
			/* translators: %s: instance URL. */
			? sprintf( __( 'Connected to %s: the token is accepted and email sending is enabled.', 'sitebeam' ), Settings::get()['api_url'] )
			/* translators: %s: why email cannot be sent. */
			: sprintf( __( 'Email: %s', 'sitebeam' ), Api_Messages::describe( $result['email'] ) );
		$ai = true === $result['ai']
			? __( 'AI: the instance lists its models; the chat can be used.', 'sitebeam' )
			/* translators: %s: why the AI API cannot be used. */
			: sprintf( __( 'AI: %s', 'sitebeam' ), Api_Messages::describe( $result['ai'] ) );
		if ( true !== $result['email'] ) {
			$type = 'error';
		} else {
			$type = true === $result['ai'] ? 'success' : 'warning';
		}
		Notice::set( $type, $email . ' ' . $ai );
		self::back();
	}

	/**
	 * Sends a test email to the current user through the API.
	 */
	public static function action_send_test_email() {
		self::authorize( self::SEND_TEST_EMAIL );
		$to      = wp_get_current_user()->user_email;
		$subject = __( 'Sitebeam test email', 'sitebeam' );
		$result  = Api_Client::from_settings()->send_email(
			array(
				Contract::EMAIL_FIELD_TO        => $to,
				Contract::EMAIL_FIELD_FROM_NAME => wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ),
				Contract::EMAIL_FIELD_SUBJECT   => $subject,
				Contract::EMAIL_FIELD_CONTENT   => '<p>' . esc_html__( 'This message was sent by the Sitebeam plugin through the Sitebeam API: sending works.', 'sitebeam' ) . '</p>',
			)
		);
		if ( is_wp_error( $result ) ) {
			$detail = Api_Messages::describe( $result );
			Send_Log::record( array( $to ), $subject, Send_Log::FAILED, $detail );
			Notice::set( 'error', $detail );
		} else {
			Send_Log::record( array( $to ), $subject, Send_Log::SENT );
			/* translators: %s: email address. */
			Notice::set( 'success', sprintf( __( 'Test email sent to %s.', 'sitebeam' ), $to ) );
		}
		self::back();
	}

	/**
	 * Stops unless the user may manage Sitebeam and the nonce is valid.
	 *
	 * @param string $action Nonce action.
	 */
	private static function authorize( $action ) {
		if ( ! current_user_can( Settings_Page::capability() ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to manage Sitebeam.', 'sitebeam' ), 403 );
		}
		check_admin_referer( $action );
	}

	/**
	 * Returns to the page the button was on (the settings page, or the outbox's status line).
	 */
	private static function back() {
		$from = wp_get_referer();
		wp_safe_redirect( $from ? $from : Settings_Page::url() );
		exit;
	}
}
