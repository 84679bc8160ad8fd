<?php
/**
 * The API's recognised prompt settings and their types (from the contract): integers ≥ 1, numbers > 0, booleans.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Contract;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The API's recognised prompt settings and their types (from the contract).
 */
final class Prompt_Settings {

	const INTEGER = 'integer';
	const NUMBER  = 'number';
	const BOOLEAN = 'boolean';

	/** A model identifier (contract/chat-protocol.md). */
	const IDENTIFIER_PATTERN = '/^[A-Za-z0-9_.-]+$/D';

	/**
	 * Every recognised setting and its type, in the contract's order.
	 *
	 * @return array<string, string>
	 */
	public static function types() {
		return array_merge(
			array_fill_keys( Contract::PROMPT_INTEGER_SETTINGS, self::INTEGER ),
			array_fill_keys( Contract::PROMPT_POSITIVE_NUMBER_SETTINGS, self::NUMBER ),
			array_fill_keys( Contract::PROMPT_BOOLEAN_SETTINGS, self::BOOLEAN )
		);
	}

	/**
	 * Settings under the service's own names: a name the contract lists as an alias (num_beams, as our clients
	 * once spelled the service's num_beans) is renamed, its value kept; the service's name wins when both are set.
	 *
	 * @param array<string, mixed> $settings Setting name => value.
	 * @return array<string, mixed>
	 */
	public static function with_service_names( array $settings ) {
		foreach ( Contract::PROMPT_SETTING_ALIASES as $alias => $name ) {
			if ( array_key_exists( $alias, $settings ) ) {
				$settings += array( $name => $settings[ $alias ] );
				unset( $settings[ $alias ] );
			}
		}
		return $settings;
	}

	/**
	 * Whether a value is a model identifier.
	 *
	 * @param mixed $value A value.
	 */
	public static function is_model_identifier( $value ) {
		return is_string( $value ) && 1 === preg_match( self::IDENTIFIER_PATTERN, $value );
	}

	/**
	 * Reads settings typed in a form (every value a string; '' means "not set", the instance's default); an alias
	 * is read as the service's name.
	 *
	 * @param mixed $posted Setting name => text.
	 * @return array{settings: array<string, int|float|bool>, refused: array<string, string>} The typed settings, and
	 *         for each refused one the sentence naming it.
	 */
	public static function from_form( $posted ) {
		$posted   = is_array( $posted ) ? self::with_service_names( $posted ) : array();
		$settings = array();
		$refused  = array();
		foreach ( self::types() as $name => $type ) {
			$text = isset( $posted[ $name ] ) && is_scalar( $posted[ $name ] ) ? trim( (string) $posted[ $name ] ) : '';
			if ( '' === $text ) {
				continue;
			}
			$value = self::parse( $type, $text );
			if ( null === $value ) {
				$refused[ $name ] = self::rule( $name );
			} else {
				$settings[ $name ] = $value;
			}
		}
		return array(
			'settings' => $settings,
			'refused'  => $refused,
		);
	}

	/**
	 * Checks settings sent as JSON: only recognised names, each of its type.
	 *
	 * @param mixed $settings Setting name => value.
	 * @return array<string, string> For each refused setting, the sentence naming it.
	 */
	public static function problems( $settings ) {
		if ( ! is_array( $settings ) ) {
			return array( 'settings' => __( 'The prompt settings must be an object.', 'sitebeam' ) );
		}
		$types    = self::types();
		$problems = array();
		foreach ( $settings as $name => $value ) {
			if ( ! isset( $types[ $name ] ) ) {
				/* translators: %s: a setting name. */
				$problems[ $name ] = sprintf( __( '%s is not a prompt setting the API recognises.', 'sitebeam' ), $name );
			} elseif ( ! self::is_of_type( $types[ $name ], $value ) ) {
				$problems[ $name ] = self::rule( $name );
			}
		}
		return $problems;
	}

	/**
	 * The typed value of a setting's text, or null when it is not of the type.
	 *
	 * @param string $type A type.
	 * @param string $text What was typed.
	 * @return int|float|bool|null
	 */
	private static function parse( $type, $text ) {
		switch ( $type ) {
			case self::INTEGER:
				return ctype_digit( $text ) && (int) $text >= 1 ? (int) $text : null;
			case self::NUMBER:
				return is_numeric( $text ) && (float) $text > 0 ? (float) $text : null;
			default:
				$booleans = array(
					'true'  => true,
					'false' => false,
				);
				return $booleans[ strtolower( $text ) ] ?? null;
		}
	}

	/**
	 * Whether a JSON value is of a setting's type.
	 *
	 * @param string $type  A type.
	 * @param mixed  $value The value.
	 */
	private static function is_of_type( $type, $value ) {
		switch ( $type ) {
			case self::INTEGER:
				return is_int( $value ) && $value >= 1;
			case self::NUMBER:
				return ( is_int( $value ) || is_float( $value ) ) && $value > 0;
			default:
				return is_bool( $value );
		}
	}

	/**
	 * The sentence naming a setting and its rule.
	 *
	 * @param string $name A recognised setting.
	 */
	private static function rule( $name ) {
		switch ( self::types()[ $name ] ) {
			case self::INTEGER:
				/* translators: %s: a prompt setting's name. */
				return sprintf( __( 'The prompt setting %s must be a whole number of at least 1.', 'sitebeam' ), $name );
			case self::NUMBER:
				/* translators: %s: a prompt setting's name. */
				return sprintf( __( 'The prompt setting %s must be a number greater than 0.', 'sitebeam' ), $name );
			default:
				/* translators: %s: a prompt setting's name. */
				return sprintf( __( 'The prompt setting %s must be true or false.', 'sitebeam' ), $name );
		}
	}
}
