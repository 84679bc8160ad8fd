<?php
/**
 * Every text the contact form and chat widgets show, translated here, and the data-text-* attributes that hand
 * the translations to the widgets (which know only English and French).
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Every text the contact form and chat widgets show, with the widget's key (snippet/src/form/texts.ts and
 * snippet/src/chat/texts.ts); each English text is the widget's own, word for word (Widget_Texts_Test).
 */
final class Widget_Texts {

	/**
	 * The contact form's texts.
	 *
	 * @return array<string, string> Widget key => text.
	 */
	public static function contact_form() {
		return array(
			'name'          => __( 'Name', 'sitebeam' ),
			'email'         => __( 'Email', 'sitebeam' ),
			'subject'       => __( 'Subject (optional)', 'sitebeam' ),
			'message'       => __( 'Message', 'sitebeam' ),
			'send'          => __( 'Send', 'sitebeam' ),
			'honeypot'      => __( 'Leave this field empty', 'sitebeam' ),
			'privacy'       => __( 'Privacy policy', 'sitebeam' ),
			'sending'       => __( 'Sending…', 'sitebeam' ),
			'sent'          => __( 'Thank you, your message was sent.', 'sitebeam' ),
			/* translators: %: the field's label (keep the % as it is). */
			'required'      => __( 'Please fill in “%”.', 'sitebeam' ),
			'emailFormat'   => __( 'Please enter a valid email address.', 'sitebeam' ),
			/* translators: %: the field's label (keep the % as it is). */
			'tooLong'       => __( '“%” is too long.', 'sitebeam' ),
			/* translators: %: the field's label (keep the % as it is). */
			'invalid'       => __( 'Please check “%”.', 'sitebeam' ),
			'consent'       => __( 'Please tick the consent box.', 'sitebeam' ),
			'network'       => __( 'Not sent: you seem to be offline. Please try again.', 'sitebeam' ),
			'rateLimited'   => __( 'Not sent: too many messages. Please try again later.', 'sitebeam' ),
			'server'        => __( 'Not sent: the server had a problem. Please try again.', 'sitebeam' ),
			'notConfigured' => __( 'Not sent: this form is not set up yet. Please contact us another way.', 'sitebeam' ),
			'spam'          => __( 'Not sent: that was too fast. Please wait a few seconds and try again.', 'sitebeam' ),
			'forbidden'     => __( 'Not sent: please reload the page and try again.', 'sitebeam' ),
		);
	}

	/**
	 * The chat's texts.
	 *
	 * @return array<string, string> Widget key => text.
	 */
	public static function chat() {
		return array(
			'log'           => __( 'Conversation', 'sitebeam' ),
			'message'       => __( 'Your message', 'sitebeam' ),
			'model'         => __( 'Model', 'sitebeam' ),
			'send'          => __( 'Send', 'sitebeam' ),
			'startOver'     => __( 'Start over', 'sitebeam' ),
			'privacy'       => __( 'Privacy policy', 'sitebeam' ),
			'you'           => __( 'You', 'sitebeam' ),
			/* translators: %: the answer's score, a number (keep the % as it is). */
			'score'         => __( 'Score: %', 'sitebeam' ),
			'sending'       => __( 'Waiting for the answer…', 'sitebeam' ),
			'warming'       => __( 'The model is warming up, trying again shortly…', 'sitebeam' ),
			'stillWarming'  => __( 'The model is still warming up. Please send your message again in a minute.', 'sitebeam' ),
			'required'      => __( 'Please type a message.', 'sitebeam' ),
			'tooLong'       => __( 'The message is too long.', 'sitebeam' ),
			'consent'       => __( 'Please tick the consent box.', 'sitebeam' ),
			'invalid'       => __( 'The message could not be sent as it is. Please change it.', 'sitebeam' ),
			'network'       => __( 'Not sent: you seem to be offline. Please try again.', 'sitebeam' ),
			'rateLimited'   => __( 'Not sent: too many messages. Please wait a minute and try again.', 'sitebeam' ),
			'closedToday'   => __( 'The chat is closed for today. Please come back tomorrow.', 'sitebeam' ),
			'server'        => __( 'Not sent: the chat had a problem. Please try again.', 'sitebeam' ),
			'notConfigured' => __( 'The chat is not available right now.', 'sitebeam' ),
			'forbidden'     => __( 'Not sent: please reload the page and try again.', 'sitebeam' ),
		);
	}

	/**
	 * The widget's data-text-* attributes, each with a leading space and its value escaped.
	 *
	 * Only a text that differs from the widget's built-in English gets one: on an English site that is none, and a
	 * French site without a French translation of the plugin keeps the widget's own French instead of getting
	 * English. A text reworded through a gettext filter differs too, so it still reaches the widget.
	 *
	 * @param callable              $texts  self::contact_form or self::chat.
	 * @param array<string, string> $worded Texts the site owner worded (by widget key), in place of the translations.
	 */
	public static function attributes( callable $texts, array $worded = array() ) {
		$english = self::untranslated( $texts );
		$html    = '';
		foreach ( $texts() as $key => $text ) {
			$shown = '' !== ( $worded[ $key ] ?? '' ) ? $worded[ $key ] : $text;
			if ( $shown !== $english[ $key ] ) {
				$html .= sprintf( ' data-text-%s="%s"', strtolower( (string) preg_replace( '/[A-Z]/', '-$0', $key ) ), esc_attr( $shown ) );
			}
		}
		return $html;
	}

	/**
	 * The texts as written in the code: the widget's English.
	 *
	 * @param callable $texts self::contact_form or self::chat.
	 * @return array<string, string>
	 */
	private static function untranslated( callable $texts ) {
		$original = static function ( $translation, $text ) {
			return $text;
		};
		add_filter( 'gettext_sitebeam', $original, PHP_INT_MAX, 2 );
		try {
			return $texts();
		} finally {
			remove_filter( 'gettext_sitebeam', $original, PHP_INT_MAX );
		}
	}
}
