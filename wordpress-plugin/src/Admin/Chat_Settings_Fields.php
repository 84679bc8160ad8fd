<?php
/**
 * The settings page's chat fields made of several inputs: the allowed models (as the instance lists them) and the
 * prompt settings (each with its type from the contract).
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Api_Messages;
use Sitebeam\Chat\Model_List;
use Sitebeam\Chat\Prompt_Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The settings page's chat fields made of several inputs.
 */
final class Chat_Settings_Fields {

	/**
	 * One row per model the instance lists (and per saved model it no longer lists): allowed, and which is the default.
	 *
	 * @param string   $name  The setting's input name.
	 * @param string[] $saved The allowed models, the first being the default.
	 */
	public static function render_models( $name, array $saved ) {
		$listed = Model_List::get();
		if ( is_wp_error( $listed ) ) {
			printf(
				'<div class="notice notice-warning inline sitebeam-models-unavailable"><p>%s</p></div>',
				/* translators: %s: why the instance could not be reached. */
				esc_html( sprintf( __( 'The instance’s models could not be listed: %s The models allowed before are kept.', 'sitebeam' ), Api_Messages::describe( $listed ) ) )
			);
			$listed = array();
		}
		$models = array_values( array_unique( array_merge( $listed, $saved ) ) );
		if ( array() === $models ) {
			printf( '<p>%s</p>', esc_html__( 'No model to choose from yet.', 'sitebeam' ) );
			return;
		}
		echo '<fieldset><legend class="screen-reader-text">' . esc_html__( 'Allowed models', 'sitebeam' ) . '</legend>';
		foreach ( $models as $model ) {
			printf(
				'<p><label><input type="checkbox" name="%1$s[]" value="%2$s" %3$s> %2$s</label> <label><input type="radio" name="%4$s" value="%2$s" %5$s> %6$s<span class="screen-reader-text"> (%2$s)</span></label>%7$s</p>',
				esc_attr( $name ),
				esc_attr( $model ),
				checked( in_array( $model, $saved, true ), true, false ),
				esc_attr( str_replace( '[chat_models]', '[chat_default_model]', $name ) ),
				checked( $model, $saved[0] ?? '', false ),
				esc_html__( 'default', 'sitebeam' ),
				in_array( $model, $listed, true ) || array() === $listed ? '' : ' <em>' . esc_html__( '(not listed by the instance)', 'sitebeam' ) . '</em>'
			);
		}
		echo '</fieldset>';
	}

	/**
	 * One input per recognised prompt setting, typed as the contract says.
	 *
	 * @param string                        $name  The setting's input name.
	 * @param array<string, int|float|bool> $saved The saved prompt settings.
	 */
	public static function render_prompt_settings( $name, array $saved ) {
		echo '<fieldset><legend class="screen-reader-text">' . esc_html__( 'Prompt settings', 'sitebeam' ) . '</legend>';
		foreach ( Prompt_Settings::types() as $setting => $type ) {
			$id = 'sitebeam-chat-setting-' . $setting;
			printf( '<p><label for="%s"><code>%s</code></label> ', esc_attr( $id ), esc_html( $setting ) );
			if ( Prompt_Settings::BOOLEAN === $type ) {
				$value = array_key_exists( $setting, $saved ) ? ( $saved[ $setting ] ? 'true' : 'false' ) : '';
				printf( '<select id="%s" name="%s">', esc_attr( $id ), esc_attr( $name . '[' . $setting . ']' ) );
				foreach ( array(
					''      => __( 'Instance default', 'sitebeam' ),
					'true'  => __( 'Yes', 'sitebeam' ),
					'false' => __( 'No', 'sitebeam' ),
				) as $option => $label ) {
					printf( '<option value="%s" %s>%s</option>', esc_attr( $option ), selected( $value, $option, false ), esc_html( $label ) );
				}
				echo '</select></p>';
				continue;
			}
			printf(
				'<input type="number" id="%s" name="%s" value="%s" min="%s" step="%s" class="small-text"></p>',
				esc_attr( $id ),
				esc_attr( $name . '[' . $setting . ']' ),
				esc_attr( array_key_exists( $setting, $saved ) ? (string) $saved[ $setting ] : '' ),
				Prompt_Settings::INTEGER === $type ? '1' : '0',
				Prompt_Settings::INTEGER === $type ? '1' : 'any'
			);
		}
		echo '</fieldset>';
	}
}
