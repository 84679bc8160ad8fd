<?php
/**
 * The "Sitebeam chat" block and the [sitebeam_chat] shortcode: a <sitebeam-chat> element on the chat route, holding
 * the plain form a visitor without JavaScript posts.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Widget_Texts;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The "Sitebeam chat" block and the [sitebeam_chat] shortcode.
 */
final class Chat_Widget {

	const SHORTCODE     = 'sitebeam_chat';
	const SCRIPT_HANDLE = 'sitebeam-chat';

	/**
	 * Chats already on the page, for unique ids.
	 *
	 * @var int
	 */
	private static $count = 0;

	/**
	 * Registers the widget's script, the shortcode and the block.
	 */
	public static function register() {
		wp_register_script( self::SCRIPT_HANDLE, plugins_url( 'assets/js/sitebeam-chat.min.js', SITEBEAM_PLUGIN_FILE ), array(), SITEBEAM_VERSION, true );
		add_shortcode( self::SHORTCODE, array( self::class, 'render' ) );
		$block_dir = SITEBEAM_PLUGIN_DIR . '/build/chat';
		if ( file_exists( $block_dir . '/block.json' ) ) {
			register_block_type( $block_dir, array( 'render_callback' => array( self::class, 'render' ) ) );
		}
	}

	/**
	 * The chat's markup; nothing while the chat is off.
	 */
	public static function render() {
		$models = Chat_Config::models();
		if ( array() === $models ) {
			return '';
		}
		wp_enqueue_script( self::SCRIPT_HANDLE );
		++self::$count;
		$form = array(
			'id'      => 'sitebeam-chat-' . self::$count,
			'models'  => $models,
			'message' => '',
			'chosen'  => '',
			'consent' => Consent_Rule::of( Consent_Rule::CHAT ),
			'ticked'  => false,
		);
		ob_start();
		echo '<sitebeam-chat action="' . esc_url( Chat_Controller::url() ) . '"' . self::consent_attributes( $form['consent'] ) . Widget_Texts::attributes( array( Widget_Texts::class, 'chat' ) ) . '>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- each value esc_attr()'d by consent_attributes() and Widget_Texts::attributes().
		include SITEBEAM_PLUGIN_DIR . '/templates/chat-form.php';
		echo '</sitebeam-chat>';
		return (string) ob_get_clean();
	}

	/**
	 * The widget renders the consent checkbox itself (it replaces the plain form) from these attributes.
	 *
	 * @param array{label: string, url: string}|null $consent The chat's checkbox, null while it is off.
	 * @return string Escaped attributes, each with a leading space.
	 */
	private static function consent_attributes( $consent ) {
		if ( null === $consent ) {
			return '';
		}
		$attributes = ' consent-label="' . esc_attr( $consent['label'] ) . '"';
		return '' === $consent['url'] ? $attributes : $attributes . ' consent-url="' . esc_url( $consent['url'] ) . '"';
	}
}
