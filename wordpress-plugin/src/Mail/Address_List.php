<?php
/**
 * Parses the address forms wp_mail accepts: arrays, comma lists, `Name <addr>`, quoted names with commas.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Contact\Field_Rules;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Parses the address forms wp_mail accepts: arrays, comma lists, `Name <addr>`, quoted names with commas.
 */
final class Address_List {

	/**
	 * Parses a list of addresses.
	 *
	 * @param string|string[] $value One or more address lists.
	 * @return array<int, array{address: string, name: string}>|WP_Error
	 */
	public static function parse( $value ) {
		$addresses = array();
		foreach ( (array) $value as $address_list ) {
			foreach ( self::split( (string) $address_list ) as $entry ) {
				$parsed = self::parse_one( $entry );
				if ( is_wp_error( $parsed ) ) {
					return $parsed;
				}
				$addresses[] = $parsed;
			}
		}
		return $addresses;
	}

	/**
	 * Parses one address with its optional name.
	 *
	 * @param string $entry `addr`, `<addr>` or `Name <addr>`.
	 * @return array{address: string, name: string}|WP_Error
	 */
	public static function parse_one( $entry ) {
		$entry = trim( $entry );
		$name  = '';
		if ( preg_match( '/^(.*)<([^<>]+)>$/s', $entry, $matches ) ) {
			$name  = trim( trim( $matches[1] ), '"' );
			$entry = trim( $matches[2] );
		}
		$special_use = Field_Rules::special_use_domain( $entry );
		if ( null !== $special_use ) {
			return new WP_Error(
				'sitebeam_special_use_address',
				/* translators: 1: the refused email address, 2: its domain, such as "test". */
				sprintf( __( 'The Sitebeam service refuses %1$s: .%2$s is a special-use domain, which receives no mail.', 'sitebeam' ), sanitize_text_field( $entry ), $special_use )
			);
		}
		// The contract's address rule, the one the service applies.
		if ( preg_match( '/[\r\n]/', $entry . $name ) || ! Field_Rules::is_address( $entry ) ) {
			return new WP_Error(
				'sitebeam_invalid_address',
				/* translators: %s: the refused email address. */
				sprintf( __( 'Invalid email address: %s', 'sitebeam' ), sanitize_text_field( $entry ) )
			);
		}
		return array(
			'address' => $entry,
			'name'    => str_replace( '\\"', '"', $name ),
		);
	}

	/**
	 * Splits on commas outside double quotes and angle brackets.
	 *
	 * @param string $addresses Comma-separated addresses.
	 * @return string[]
	 */
	private static function split( $addresses ) {
		$parts   = array();
		$current = '';
		$quoted  = false;
		$angled  = false;
		$length  = strlen( $addresses );
		for ( $i = 0; $i < $length; $i++ ) {
			$char = $addresses[ $i ];
			if ( '"' === $char && ( 0 === $i || '\\' !== $addresses[ $i - 1 ] ) ) {
				$quoted = ! $quoted;
			} elseif ( ! $quoted && '<' === $char ) {
				$angled = true;
			} elseif ( ! $quoted && '>' === $char ) {
				$angled = false;
			} elseif ( ',' === $char && ! $quoted && ! $angled ) {
				$parts[] = $current;
				$current = '';
				continue;
			}
			$current .= $char;
		}
		$parts[] = $current;
		return array_values( array_filter( array_map( 'trim', $parts ), 'strlen' ) );
	}
}
