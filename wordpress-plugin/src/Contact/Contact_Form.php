<?php
/**
 * The contact form markup shared by the block and the shortcode; the widget script enhances it.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Settings;
use Sitebeam\Widget_Texts;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The contact form markup shared by the block and the shortcode; the widget script enhances it.
 */
final class Contact_Form {

	const SHORTCODE     = 'sitebeam_contact';
	const SCRIPT_HANDLE = 'sitebeam-form';

	/**
	 * Forms already on the page, for unique ids.
	 *
	 * @var int
	 */
	private static $count = 0;

	/**
	 * Registers the form’s script, the shortcode and the block.
	 */
	public static function register() {
		wp_register_script( self::SCRIPT_HANDLE, plugins_url( 'assets/js/sitebeam-form.min.js', SITEBEAM_PLUGIN_FILE ), array(), SITEBEAM_VERSION, true );
		add_shortcode( self::SHORTCODE, array( self::class, 'render' ) );
		$block_dir = SITEBEAM_PLUGIN_DIR . '/build/contact-form';
		if ( file_exists( $block_dir . '/block.json' ) ) {
			register_block_type( $block_dir, array( 'render_callback' => array( self::class, 'render' ) ) );
		}
	}

	/**
	 * What the visitor is told when the message was received but kept for later (the instance could not take it yet):
	 * the answer's `message` with JavaScript, the page's notice without.
	 */
	public static function received_message() {
		return __( 'Thanks, we received your message.', 'sitebeam' );
	}

	/**
	 * The form’s markup, with a fresh nonce.
	 *
	 * @param array<string, string>|string $attributes Shortcode or block attributes.
	 */
	public static function render( $attributes = array() ) {
		$texts      = Widget_Texts::contact_form();
		$attributes = shortcode_atts(
			array(
				'button' => $texts['send'],
			),
			is_array( $attributes ) ? $attributes : array(),
			self::SHORTCODE
		);
		if ( '' === trim( (string) $attributes['button'] ) ) {
			$attributes['button'] = $texts['send'];
		}
		wp_enqueue_script( self::SCRIPT_HANDLE );
		++self::$count;
		$id = 'sitebeam-contact-' . self::$count;

		$success_message = (string) Settings::get()['contact_success'];
		$sent_notice     = '';
		// phpcs:disable WordPress.Security.NonceVerification -- display flags after the no-JavaScript redirect; nothing changes.
		if ( isset( $_GET[ Contract::CONTACT_SENT_QUERY_PARAM ] ) && '1' === $_GET[ Contract::CONTACT_SENT_QUERY_PARAM ] ) {
			$queued      = isset( $_GET[ Contract::CONTACT_RESPONSE_FIELD_QUEUED ] ) && '1' === $_GET[ Contract::CONTACT_RESPONSE_FIELD_QUEUED ];
			$sent_notice = sprintf( '<p class="sitebeam-contact__sent" role="status">%s</p>', esc_html( $queued ? self::received_message() : $success_message ) );
		}
		// phpcs:enable
		$consent         = Consent_Rule::of( Consent_Rule::CONTACT );
		$text_attributes = Widget_Texts::attributes( array( Widget_Texts::class, 'contact_form' ), array( 'sent' => $success_message ) );

		ob_start();
		include SITEBEAM_PLUGIN_DIR . '/templates/contact-form.php';
		return $sent_notice . ob_get_clean();
	}
}
