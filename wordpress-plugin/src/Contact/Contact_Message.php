<?php
/**
 * Composes the API message for a contact post: recipient fixed by the site, visitor values escaped.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Api_Client;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Composes the API message for a contact post: recipient fixed by the site, visitor values escaped.
 */
final class Contact_Message {

	/**
	 * The API message for one contact post.
	 *
	 * @param array{name: string, email: string, subject: string, message: string, page?: string} $fields    Validated visitor fields, and the page the form was on.
	 * @param string                                                                              $recipient The configured recipient.
	 * @return array<string, string>
	 */
	public static function compose( array $fields, $recipient ) {
		$site_name = wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES );
		$subject   = '' !== $fields['subject'] ? $fields['subject'] : __( 'Message from the contact form', 'sitebeam' );
		$rows      = array(
			__( 'Name', 'sitebeam' )    => $fields['name'],
			__( 'Email', 'sitebeam' )   => $fields['email'],
			__( 'Subject', 'sitebeam' ) => $fields['subject'],
			__( 'Page', 'sitebeam' )    => $fields['page'] ?? '',
		);
		$content   = '';
		foreach ( array_filter( $rows, 'strlen' ) as $label => $value ) {
			$content .= sprintf( "<p><strong>%s:</strong> %s</p>\n", esc_html( $label ), esc_html( $value ) );
		}
		$content .= '<p>' . nl2br( esc_html( $fields['message'] ), false ) . "</p>\n";

		// The visitor is the Reply-To, never the sender: their domain's DMARC policy would reject the mail.
		return array(
			Api_Client::FIELD_TO        => $recipient,
			Api_Client::FIELD_FROM_NAME => $site_name,
			Api_Client::FIELD_REPLY_TO  => $fields['email'],
			Api_Client::FIELD_SUBJECT   => sprintf( '[%s] %s', $site_name, $subject ),
			Api_Client::FIELD_CONTENT   => $content,
		);
	}
}
