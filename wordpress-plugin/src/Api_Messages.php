<?php
/**
 * Turns an API error into a sentence a site owner understands.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Turns an API error into a sentence a site owner understands.
 */
final class Api_Messages {

	/**
	 * The sentence for an error.
	 *
	 * @param WP_Error $error An error from Api_Client, or a local one whose message is already for people.
	 */
	public static function describe( WP_Error $error ) {
		switch ( $error->get_error_code() ) {
			case Api_Client::ERROR_NOT_CONFIGURED:
				if ( Settings::token_needs_fixed_url() ) {
					/* translators: 1: constant name, 2: constant name. */
					return sprintf( __( 'The API token is set in wp-config.php by %1$s, so the instance URL must be set there too, by %2$s: the token is never sent to a URL saved on the settings page.', 'sitebeam' ), Settings::TOKEN_CONSTANT, Settings::CONSTANTS['api_url'] );
				}
				return __( 'Sitebeam is not configured: enter the instance URL (https, or http on localhost) and the API token.', 'sitebeam' );
			case Contract::ERROR_AUTH_FAILED:
				return __( 'The instance refused the API token: the token is wrong.', 'sitebeam' );
			case Contract::ERROR_NOT_EMAILAPI:
				return __( 'Email sending is not enabled for this account: ask the instance’s support or administrator to enable it.', 'sitebeam' );
			case Contract::ERROR_ACCOUNT_NOT_CONFIRMED:
				return __( 'The instance accepted the token, but its account is not confirmed yet: confirm it on the instance.', 'sitebeam' );
			case Contract::ERROR_NOT_AIAPI:
			case Contract::ERROR_NOT_CWAIAPI:
			case Contract::ERROR_CWAIAPI_NOT_ENABLED:
				return __( 'The AI API is not enabled for this account: ask the instance’s support or administrator to enable it.', 'sitebeam' );
			case Contract::ERROR_CWAI_NOT_IMPLEMENED:
				return __( 'This instance’s release has no AI API: the chat cannot be used with it; email is not affected.', 'sitebeam' );
			case Contract::ERROR_MODEL_NOT_FOUND:
			case Contract::ERROR_CWAI_MODEL_NOTFOUND:
				return __( 'The instance does not have this model: choose one it lists.', 'sitebeam' );
			case Contract::ERROR_INVALID_PAYLOAD:
				$data = (array) $error->get_error_data();
				if ( isset( $data['field'], $data['reason'] ) ) {
					/* translators: 1: the field of the API message, 2: the instance's reason. */
					return sprintf( __( 'The instance refused the field “%1$s” of the message: %2$s.', 'sitebeam' ), $data['field'], $data['reason'] );
				}
				/* translators: %s: the instance's error text. */
				return sprintf( __( 'The instance refused the message: %s', 'sitebeam' ), $error->get_error_message() );
			case Contract::ERROR_DISABLED_EMAIL_SERVICE:
				return __( 'This instance has email sending switched off.', 'sitebeam' );
			case Api_Client::ERROR_NETWORK:
			case Api_Client::ERROR_UNEXPECTED:
				// One text for every failure below the API: telling refused, timed out and non-Sitebeam answers apart
				// would let whoever edits the URL probe which ports of the server's network are open.
				return __( 'The instance cannot be reached, or did not answer as a Sitebeam instance: check the instance URL.', 'sitebeam' );
			case Contract::ERROR_NOT_FOUND:
				return __( 'The instance has no such API route: its release lacks this feature.', 'sitebeam' );
			case Api_Client::ERROR_SERVER:
				/* translators: %d: HTTP status code. */
				return sprintf( __( 'The instance failed to answer (HTTP %d): try again in a moment.', 'sitebeam' ), (int) ( $error->get_error_data()['status'] ?? 0 ) );
			case Contract::ERROR_RATE_LIMITED:
				return __( 'The instance received too many requests: try again later.', 'sitebeam' );
			default:
				$data = $error->get_error_data();
				if ( ! isset( $data['status'] ) ) {
					return $error->get_error_message();
				}
				/* translators: 1: HTTP status code, 2: the instance's error text. */
				return sprintf( __( 'The instance answered HTTP %1$d: %2$s', 'sitebeam' ), (int) ( $data['status'] ?? 0 ), $error->get_error_message() );
		}
	}
}
