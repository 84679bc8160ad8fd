<?php
/**
 * The optional consent checkbox of the contact form and the chat (contract/contact-protocol.md, "Consent"): what the
 * owner set in Settings → Sitebeam, and what a post must carry to give consent.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Endpoint;

use Sitebeam\Admin\Settings_Page;
use Sitebeam\Contract;
use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The optional consent checkbox of the contact form and the chat.
 */
final class Consent_Rule {

	const CONTACT = 'contact';
	const CHAT    = 'chat';

	/**
	 * The endpoint's checkbox, or null while it is off (no label set). The policy link defaults to WordPress's own
	 * privacy policy page, when one is published.
	 *
	 * @param string $endpoint self::CONTACT or self::CHAT.
	 * @return array{label: string, url: string}|null
	 */
	public static function of( $endpoint ) {
		$settings = Settings::get();
		$label    = trim( (string) ( $settings[ $endpoint . '_consent' ] ?? '' ) );
		if ( '' === $label ) {
			return null;
		}
		$url = (string) ( $settings[ $endpoint . '_policy' ] ?? '' );
		return array(
			'label' => $label,
			'url'   => '' !== $url ? $url : get_privacy_policy_url(),
		);
	}

	/**
	 * The blocks' sidebars and previews show the site's checkboxes, and link to where they are set for those who may.
	 */
	public static function action_enqueue_block_editor_assets() {
		$state = array(
			self::CONTACT => self::of( self::CONTACT ),
			self::CHAT    => self::of( self::CHAT ),
			'settings'    => current_user_can( Settings_Page::capability() ) ? Settings_Page::url() : '',
		);
		foreach ( array( 'sitebeam-contact-form-editor-script', 'sitebeam-chat-editor-script' ) as $handle ) {
			wp_add_inline_script( $handle, 'window.sitebeamConsent = ' . wp_json_encode( $state ) . ';', 'before' );
		}
	}

	/**
	 * Whether a posted value gives consent: JSON true, or an accepted text (trimmed, compared without case).
	 *
	 * @param mixed $value The posted `consent`.
	 */
	public static function is_given( $value ) {
		if ( true === $value ) {
			return true;
		}
		return is_string( $value ) && in_array( strtolower( trim( $value, " \t\n\r" ) ), Contract::CONSENT_ACCEPTED_TEXTS, true );
	}

	/**
	 * The checkbox for a form, with the owner's label and policy link (opened in a new tab): required, ticked again
	 * when the visitor had ticked it.
	 *
	 * @param array{label: string, url: string} $consent The endpoint's checkbox.
	 * @param string                            $id      The form's id prefix.
	 * @param bool                              $ticked  Whether the visitor had ticked it.
	 * @return string HTML, escaped.
	 */
	public static function checkbox( array $consent, $id, $ticked = false ) {
		$link = '' === $consent['url'] ? '' : sprintf( ' <a href="%s" target="_blank" rel="noopener">%s</a>', esc_url( $consent['url'] ), esc_html__( 'Privacy policy', 'sitebeam' ) );
		return sprintf(
			'<p class="sitebeam-consent"><input id="%1$s" name="%2$s" type="checkbox" value="yes" required%3$s> <label for="%1$s">%4$s</label>%5$s</p>',
			esc_attr( $id . '-consent' ),
			esc_attr( Contract::CONTACT_FIELD_CONSENT ),
			$ticked ? ' checked' : '',
			esc_html( $consent['label'] ),
			$link
		);
	}
}
