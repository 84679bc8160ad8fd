<?php
/**
 * Composes the API message for a contact post: recipient fixed by the site, visitor values escaped.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;
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
	 * @param array{name: string, email: string, subject: string, message: string, page?: string, consent?: string} $fields    Validated visitor fields, the page the form was on and the consent label the visitor agreed to.
	 * @param string                                                                                                $recipient The configured recipient.
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
		if ( '' !== ( $fields['consent'] ?? '' ) ) {
			// Not translated: the contract's line, which every endpoint writes the same.
			$content .= '<p>' . esc_html( Contract::CONSENT_MAIL_LINE . $fields['consent'] ) . "</p>\n";
		}

		// The visitor is the Reply-To, never the sender: their domain's DMARC policy would reject the mail.
		return array(
			Contract::EMAIL_FIELD_TO        => $recipient,
			Contract::EMAIL_FIELD_FROM_NAME => $site_name,
			Contract::EMAIL_FIELD_REPLYTO   => $fields['email'],
			Contract::EMAIL_FIELD_SUBJECT   => self::subject( $site_name, $subject ),
			Contract::EMAIL_FIELD_CONTENT   => $content,
		);
	}

	/**
	 * `[Site] subject`, at most the API's subject length: the site's name is shortened, never the visitor's subject.
	 *
	 * @param string $site_name The site's name.
	 * @param string $subject   The visitor's subject (at most Contract::CONTACT_SUBJECT_MAX_CHARS characters).
	 */
	public static function subject( $site_name, $subject ) {
		$room = Contract::LIMIT_SUBJECT_CHARS - mb_strlen( $subject, 'UTF-8' ) - 3;
		if ( mb_strlen( $site_name, 'UTF-8' ) > $room ) {
			$site_name = mb_substr( $site_name, 0, max( 0, $room - 1 ), 'UTF-8' ) . '…';
		}
		return sprintf( '[%s] %s', $site_name, $subject );
	}
}
