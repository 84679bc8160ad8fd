<?php
/**
 * The text the plugin suggests for the site's privacy policy (Settings → Privacy → Policy Guide).
 *
 * @package Sitebeam
 */

namespace Sitebeam\Privacy;

use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The text the plugin suggests for the site's privacy policy (Settings → Privacy → Policy Guide).
 */
final class Policy_Text {

	/**
	 * Suggests the text; WordPress shows it in the policy guide.
	 */
	public static function action_admin_init() {
		if ( function_exists( 'wp_add_privacy_policy_content' ) ) {
			wp_add_privacy_policy_content( __( 'Sitebeam', 'sitebeam' ), self::html( Settings::get() ) );
		}
	}

	/**
	 * The suggested text, naming the configured instance.
	 *
	 * @param array<string, mixed> $settings Effective settings.
	 * @return string HTML.
	 */
	public static function html( array $settings ) {
		$instance   = '' !== (string) $settings['api_url']
			? (string) wp_parse_url( (string) $settings['api_url'], PHP_URL_HOST )
			: __( 'the Sitebeam instance this site uses', 'sitebeam' );
		$paragraphs = array();
		if ( ! empty( $settings['tracker'] ) ) {
			/* translators: %s: host name of the Sitebeam instance. */
			$paragraphs[] = sprintf( __( 'When you visit this site, your browser tells %s which page you opened and which page sent you here. That service records the visit with your IP address, your browser and device type and an approximate location derived from the IP address, for visit statistics.', 'sitebeam' ), $instance );
		}
		/* translators: %s: host name of the Sitebeam instance. */
		$paragraphs[] = sprintf( __( 'When you send a message through a contact form on this site, the name, email address and message you enter are sent to %s, which delivers them to us by email.', 'sitebeam' ), $instance );
		if ( '' !== trim( (string) ( $settings['contact_consent'] ?? '' ) ) ) {
			$paragraphs[] = __( 'The contact form asks for your agreement before it sends your message; the email we receive says that you agreed, with the text you agreed to.', 'sitebeam' );
		}
		if ( ! empty( $settings['chat_enabled'] ) ) {
			/* translators: %s: host name of the Sitebeam instance. */
			$paragraphs[] = sprintf( __( 'When you use the chat on this site, your message is sent to %s, whose AI model answers it.', 'sitebeam' ), $instance );
		}
		if ( ! empty( $settings['route_mail'] ) ) {
			/* translators: 1: host name of the Sitebeam instance, 2: how many sends the log keeps, 3: how many undelivered mails it keeps beyond them. */
			$paragraphs[] = sprintf( __( 'Emails this site sends you (for example account and order emails) are delivered through %1$s. Each recipient gets their own copy, and this site keeps a log of its last %2$d sends, and beyond them of up to %3$d mails that failed or were deleted unsent, with one entry per recipient: each entry names only that recipient’s own address, never the others a mail went to, with the time, the subject and the result (never the content).', 'sitebeam' ), $instance, Send_Log::SIZE, Send_Log::UNDELIVERED_KEPT );
		}
		/* translators: 1: host name of the Sitebeam instance, 2: hours, 3: days. */
		$paragraphs[] = sprintf( __( 'When %1$s cannot take an email or a contact message at once, this site keeps it, with its content, until it is delivered, for at most %2$s hours; one given up is kept %3$s days so that we can see what failed, then deleted.', 'sitebeam' ), $instance, number_format_i18n( (int) $settings['outbox_lifetime'] ), number_format_i18n( (int) $settings['outbox_keep_days'] ) );
		$html         = '<p class="privacy-policy-tutorial">' . esc_html__( 'Sitebeam sends what is described below to the Sitebeam instance configured in Settings → Sitebeam. Suggested text:', 'sitebeam' ) . '</p>';
		foreach ( $paragraphs as $paragraph ) {
			$html .= '<p>' . esc_html( $paragraph ) . '</p>';
		}
		return $html;
	}
}
