<?php
/**
 * The chat protocol's rules for a visitor's message and model choice.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Consent_Rule;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The chat protocol's rules for a visitor's message and model choice.
 */
final class Message_Rules {

	/** What the protocol trims: ASCII white space. */
	const TRIMMED = " \t\n\r";

	/**
	 * The prompt a visitor's fields make, or the field at fault.
	 *
	 * @param array<string, mixed> $fields       The posted fields.
	 * @param string[]             $models       The allowed models, the first being the default.
	 * @param bool                 $asks_consent Whether the owner's consent checkbox is on.
	 * @return array{model: string, message: string}|array{field: string, error: string}
	 */
	public static function check( array $fields, array $models, $asks_consent = false ) {
		$message = $fields[ Contract::CHAT_FIELD_MESSAGE ] ?? null;
		// preg_match() answers false, not 0, for invalid UTF-8 under the u flag: that is a refusal too.
		if ( ! is_string( $message ) || 0 !== preg_match( Contract::MULTI_LINE_FORBIDDEN_PATTERN, $message ) ) {
			return self::fault( Contract::CHAT_FIELD_MESSAGE, __( 'Please type a message, as plain text.', 'sitebeam' ) );
		}
		$message = trim( $message, self::TRIMMED );
		$length  = mb_strlen( $message, 'UTF-8' );
		if ( 0 === $length || $length > Contract::CHAT_MESSAGE_MAX_CHARS ) {
			/* translators: %s: maximum number of characters. */
			return self::fault( Contract::CHAT_FIELD_MESSAGE, sprintf( __( 'Please type a message of at most %s characters.', 'sitebeam' ), number_format_i18n( Contract::CHAT_MESSAGE_MAX_CHARS ) ) );
		}
		$model = $fields[ Contract::CHAT_FIELD_MODEL ] ?? '';
		if ( '' === $model ) {
			$model = $models[0];
		}
		if ( ! is_string( $model ) || ! in_array( $model, $models, true ) ) {
			/* translators: %s: the allowed models, comma-separated. */
			return self::fault( Contract::CHAT_FIELD_MODEL, sprintf( __( 'Model must be one of %s.', 'sitebeam' ), implode( ', ', $models ) ) );
		}
		if ( $asks_consent && ! Consent_Rule::is_given( $fields[ Contract::CHAT_FIELD_CONSENT ] ?? null ) ) {
			return self::fault( Contract::CHAT_FIELD_CONSENT, __( 'Please tick the box to agree before sending.', 'sitebeam' ) );
		}
		return array(
			'model'   => $model,
			'message' => $message,
		);
	}

	/**
	 * A field at fault.
	 *
	 * @param string $field The field.
	 * @param string $error Text a visitor may read.
	 */
	private static function fault( $field, $error ) {
		return array(
			'field' => $field,
			'error' => $error,
		);
	}
}
