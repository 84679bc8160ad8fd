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

final class Api_Messages {

	/**
	 * @param WP_Error $error An error from Api_Client, or a local one whose message is already for people.
	 */
	public static function describe( WP_Error $error ) {
		switch ( $error->get_error_code() ) {
			case Api_Client::ERROR_NOT_CONFIGURED:
				return __( 'Sitebeam is not configured: enter the instance URL (https, or http on localhost) and the API token.', 'sitebeam' );
			case Api_Client::ERROR_AUTH_FAILED:
				return __( 'The instance refused the API token: the token is wrong.', 'sitebeam' );
			case Api_Client::ERROR_NOT_EMAILAPI:
				return __( 'Email sending is not enabled for this account: ask the instance’s support or administrator to enable it.', 'sitebeam' );
			case Api_Client::ERROR_NOT_AIAPI:
				return __( 'The AI API is not enabled for this account: ask the instance’s support or administrator to enable it.', 'sitebeam' );
			case Api_Client::ERROR_EMAIL_DISABLED:
				return __( 'This instance has email sending switched off.', 'sitebeam' );
			case Api_Client::ERROR_NETWORK:
				/* translators: %s: the network error text. */
				return sprintf( __( 'The instance cannot be reached (%s).', 'sitebeam' ), $error->get_error_message() );
			case Api_Client::ERROR_RATE_LIMITED:
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
