<?php
/**
 * The contact protocol's field rules (contract/contact-protocol.md), as REST argument schemas.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Consent_Rule;
use WP_Error;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The contact protocol's field rules, with the contract's limits and patterns.
 */
final class Field_Rules {

	/** What the protocol trims: ASCII whitespace only, so U+00A0 and the like count as characters. */
	const TRIMMED = " \t\n\r";

	/**
	 * The route’s arguments with their validation and sanitizing callbacks, in the order the protocol names
	 * the first field at fault.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function rest_args() {
		$args = array(
			Contract::CONTACT_FIELD_NAME    => self::arg( true, 'validate_name', 'clean_line' ),
			Contract::CONTACT_FIELD_EMAIL   => self::arg( true, 'validate_email', 'clean_line' ),
			Contract::CONTACT_FIELD_SUBJECT => self::arg( false, 'validate_subject', 'clean_line' ),
			Contract::CONTACT_FIELD_MESSAGE => self::arg( true, 'validate_message', 'clean_text' ),
		);
		// While the checkbox is off a posted consent is ignored like any other extra field.
		if ( null !== Consent_Rule::of( Consent_Rule::CONTACT ) ) {
			$args[ Contract::CONTACT_FIELD_CONSENT ] = self::arg( true, 'validate_consent', 'clean_consent' );
		}
		return $args + array(
			Contract::CONTACT_FIELD_HONEYPOT => self::arg( false, 'validate_scalar', 'clean_line' ),
			Contract::CONTACT_FIELD_TICKET   => self::arg( false, 'validate_scalar', 'clean_line' ),
			Form_Nonce::FIELD                => self::arg( false, 'validate_scalar', 'clean_line' ),
		);
	}

	/**
	 * The first field at fault in the protocol's order (WordPress reports missing fields before invalid ones).
	 *
	 * @param WP_REST_Request $request The post.
	 * @return array{0: string, 1: string}|null The field and the error for the visitor, or null.
	 */
	public static function first_fault( WP_REST_Request $request ) {
		foreach ( self::rest_args() as $name => $arg ) {
			$value = $request->get_param( $name );
			// A missing consent gets the consent's own message, not the generic one.
			if ( null === $value && Contract::CONTACT_FIELD_CONSENT !== $name ) {
				if ( $arg['required'] ) {
					return array( $name, __( 'Please fill in every required field.', 'sitebeam' ) );
				}
				continue;
			}
			$valid = call_user_func( $arg['validate_callback'], $value );
			if ( is_wp_error( $valid ) ) {
				return array( $name, $valid->get_error_message() );
			}
		}
		return null;
	}

	/**
	 * Whether a value is one bare email address by the contract's address rule, the service's (visitors' and
	 * configured ones; none at a special-use domain).
	 *
	 * @param mixed $value A value.
	 */
	public static function is_address( $value ) {
		return is_string( $value ) && 1 === preg_match( Contract::EMAIL_ADDRESS_PATTERN, $value );
	}

	/**
	 * The special-use domain (RFC 6761: test, local, …) an address is at, which the service's validator refuses
	 * and the address rule with it; named so that a refusal can say why.
	 *
	 * @param string $address An address.
	 * @return string|null The domain, such as "test", or null.
	 */
	public static function special_use_domain( $address ) {
		$labels = explode( '.', strtolower( (string) substr( (string) strrchr( $address, '@' ), 1 ) ) );
		$last   = (string) end( $labels );
		return in_array( $last, Contract::SPECIAL_USE_DOMAINS, true ) ? $last : null;
	}

	/**
	 * One REST argument.
	 *
	 * @param bool   $required Whether the field must be present.
	 * @param string $validate Validating method of this class.
	 * @param string $sanitize Sanitizing method of this class.
	 * @return array<string, mixed>
	 */
	private static function arg( $required, $validate, $sanitize ) {
		return array(
			'required'          => $required,
			'validate_callback' => array( self::class, $validate ),
			'sanitize_callback' => array( self::class, $sanitize ),
		);
	}

	/**
	 * Validates the visitor’s name.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_name( $value ) {
		/* translators: %d: maximum number of characters. */
		$message = sprintf( __( 'Please enter your name (at most %d characters, on one line).', 'sitebeam' ), Contract::CONTACT_NAME_MAX_CHARS );
		return self::text( $value, Contract::SINGLE_LINE_FORBIDDEN_PATTERN, 1, Contract::CONTACT_NAME_MAX_CHARS, $message );
	}

	/**
	 * Validates the visitor’s email address.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_email( $value ) {
		$message = __( 'Please enter a valid email address.', 'sitebeam' );
		$text    = self::text( $value, Contract::SINGLE_LINE_FORBIDDEN_PATTERN, 1, Contract::CONTACT_EMAIL_MAX_CHARS, $message );
		if ( true !== $text ) {
			return $text;
		}
		$address = trim( $value, self::TRIMMED );
		if ( null !== self::special_use_domain( $address ) ) {
			return self::invalid( __( 'This address cannot receive mail from this site: please use another address.', 'sitebeam' ) );
		}
		return self::is_address( $address ) ? true : self::invalid( $message );
	}

	/**
	 * Validates the optional subject.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_subject( $value ) {
		/* translators: %d: maximum number of characters. */
		$message = sprintf( __( 'The subject must fit on one line of at most %d characters.', 'sitebeam' ), Contract::CONTACT_SUBJECT_MAX_CHARS );
		return self::text( $value, Contract::SINGLE_LINE_FORBIDDEN_PATTERN, 0, Contract::CONTACT_SUBJECT_MAX_CHARS, $message );
	}

	/**
	 * Validates the message.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_message( $value ) {
		/* translators: %s: maximum number of characters. */
		$message = sprintf( __( 'Please enter a message of at most %s characters.', 'sitebeam' ), number_format_i18n( Contract::CONTACT_MESSAGE_MAX_CHARS ) );
		return self::text( $value, Contract::MULTI_LINE_FORBIDDEN_PATTERN, 1, Contract::CONTACT_MESSAGE_MAX_CHARS, $message );
	}

	/**
	 * Validates the consent, required while the owner asks for it.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_consent( $value ) {
		return Consent_Rule::is_given( $value ) ? true : self::invalid( __( 'Please tick the box to agree before sending.', 'sitebeam' ) );
	}

	/**
	 * A validated consent is given.
	 */
	public static function clean_consent() {
		return true;
	}

	/**
	 * Validates a field that must be text.
	 *
	 * @param mixed $value Submitted value.
	 * @return true|WP_Error
	 */
	public static function validate_scalar( $value ) {
		return is_string( $value ) && self::is_utf8( $value ) ? true : self::invalid( __( 'This field must be text.', 'sitebeam' ) );
	}

	/**
	 * Trims a single-line value; visitor values are escaped where they are output, never stripped here.
	 *
	 * @param mixed $value Validated value.
	 */
	public static function clean_line( $value ) {
		return trim( (string) $value, self::TRIMMED );
	}

	/**
	 * Trims a multi-line value and normalizes its line breaks.
	 *
	 * @param mixed $value Validated value.
	 */
	public static function clean_text( $value ) {
		return trim( str_replace( "\r\n", "\n", (string) $value ), self::TRIMMED );
	}

	/**
	 * Validates text: a string of valid UTF-8, without the forbidden characters as posted, of a length range
	 * once trimmed.
	 *
	 * @param mixed  $value     Submitted value.
	 * @param string $forbidden Pattern of the characters the field refuses.
	 * @param int    $min       Minimum length in characters.
	 * @param int    $max       Maximum length in characters.
	 * @param string $message   Error for the visitor.
	 * @return true|WP_Error
	 */
	private static function text( $value, $forbidden, $min, $max, $message ) {
		// preg_match() answers false, not 0, for invalid UTF-8 under the u flag: that is a refusal too.
		if ( ! is_string( $value ) || ! self::is_utf8( $value ) || 0 !== preg_match( $forbidden, $value ) ) {
			return self::invalid( $message );
		}
		$length = mb_strlen( trim( $value, self::TRIMMED ), 'UTF-8' );
		return $length >= $min && $length <= $max ? true : self::invalid( $message );
	}

	/**
	 * Whether a string is valid UTF-8 (lone surrogates included in the invalid).
	 *
	 * @param string $value A string.
	 */
	private static function is_utf8( $value ) {
		return 1 === preg_match( '//u', $value );
	}

	/**
	 * The invalid_field error.
	 *
	 * @param string $message Error for the visitor.
	 */
	private static function invalid( $message ) {
		return new WP_Error( Contract::CONTACT_ERROR_INVALID_FIELD, $message, array( 'status' => Contract::CONTACT_ERROR_STATUS[ Contract::CONTACT_ERROR_INVALID_FIELD ] ) );
	}
}
