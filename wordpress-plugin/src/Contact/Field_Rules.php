<?php
/**
 * The contact protocol's field rules (snippet/src/form/PROTOCOL.md), as REST argument schemas.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The contact protocol's field rules (snippet/src/form/PROTOCOL.md), as REST argument schemas.
 */
final class Field_Rules {

	const NAME_MAX    = 200;
	const SUBJECT_MAX = 200;
	const MESSAGE_MAX = 10000;

	/**
	 * The route’s arguments with their validation and sanitizing callbacks.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function rest_args() {
		return array(
			'name'            => self::arg( true, array( self::class, 'validate_name' ), array( self::class, 'clean_line' ) ),
			'email'           => self::arg( true, array( self::class, 'validate_email' ), array( self::class, 'clean_line' ) ),
			'subject'         => self::arg( false, array( self::class, 'validate_subject' ), array( self::class, 'clean_line' ) ),
			'message'         => self::arg( true, array( self::class, 'validate_message' ), array( self::class, 'clean_text' ) ),
			'homepage'        => self::arg( false, array( self::class, 'validate_scalar' ), array( self::class, 'clean_line' ) ),
			'started_at'      => self::arg( false, array( self::class, 'validate_scalar' ), array( self::class, 'clean_line' ) ),
			Form_Nonce::FIELD => self::arg( false, array( self::class, 'validate_scalar' ), array( self::class, 'clean_line' ) ),
		);
	}

	/**
	 * One REST argument.
	 *
	 * @param bool     $required Whether the field must be present.
	 * @param callable $validate Validation callback.
	 * @param callable $sanitize Sanitizing callback.
	 * @return array<string, mixed>
	 */
	private static function arg( $required, $validate, $sanitize ) {
		return array(
			'required'          => $required,
			'validate_callback' => $validate,
			'sanitize_callback' => $sanitize,
		);
	}

	/**
	 * Validates the visitor’s name.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_name( $value ) {
		return self::line( $value, 1, self::NAME_MAX, __( 'Please enter your name (at most 200 characters, on one line).', 'sitebeam' ) );
	}

	/**
	 * Validates the visitor’s email address.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_email( $value ) {
		$valid = is_string( $value ) && ! preg_match( '/[\r\n]/', $value ) && is_email( trim( $value ) );
		return $valid ? true : self::invalid( __( 'Please enter a valid email address.', 'sitebeam' ) );
	}

	/**
	 * Validates the optional subject.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_subject( $value ) {
		return self::line( $value, 0, self::SUBJECT_MAX, __( 'The subject must fit on one line of at most 200 characters.', 'sitebeam' ) );
	}

	/**
	 * Validates the message.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_message( $value ) {
		$length = is_string( $value ) ? mb_strlen( trim( $value ) ) : 0;
		return $length >= 1 && $length <= self::MESSAGE_MAX ? true : self::invalid( __( 'Please enter a message of at most 10,000 characters.', 'sitebeam' ) );
	}

	/**
	 * Validates a field that must be text.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_scalar( $value ) {
		return is_scalar( $value ) ? true : self::invalid( __( 'This field must be text.', 'sitebeam' ) );
	}

	/**
	 * Trims without touching the text: visitor values are escaped where they are output, never stripped here.
	 *
	 * @param mixed $value Validated value.
	 */
	public static function clean_line( $value ) {
		return trim( wp_check_invalid_utf8( (string) $value ) );
	}

	/**
	 * Trims a multi-line value and normalizes its line breaks.
	 *
	 * @param mixed $value Validated value.
	 */
	public static function clean_text( $value ) {
		return trim( wp_check_invalid_utf8( str_replace( "\r\n", "\n", (string) $value ) ) );
	}

	/**
	 * Validates a single-line value of a length range.
	 *
	 * @param mixed  $value   Submitted value.
	 * @param int    $min     Minimum length.
	 * @param int    $max     Maximum length.
	 * @param string $message Error for the visitor.
	 * @return true|WP_Error
	 */
	private static function line( $value, $min, $max, $message ) {
		if ( ! is_string( $value ) || preg_match( '/[\r\n]/', $value ) ) {
			return self::invalid( $message );
		}
		$length = mb_strlen( trim( $value ) );
		return $length >= $min && $length <= $max ? true : self::invalid( $message );
	}

	/**
	 * The invalid_field error.
	 *
	 * @param string $message Error for the visitor.
	 */
	private static function invalid( $message ) {
		return new WP_Error( 'invalid_field', $message, array( 'status' => 400 ) );
	}
}
