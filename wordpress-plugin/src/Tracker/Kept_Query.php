<?php
/**
 * The "Keep query parameters" setting: which query parameters of a page's URL reach the visit record, as the tag's
 * data-keep-query reads them (snippet/src/tracker/page-url.ts). Empty: the tag's default, the campaign parameters.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Tracker;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The "Keep query parameters" setting: a comma list of parameter names (`*` a wildcard in a name), or `*` for all.
 */
final class Kept_Query {

	/** Every parameter: the whole page URL (its fragment excepted) reaches the visit record. */
	const ALL = '*';

	/**
	 * A parameter name as the tag matches it, before decoding: letters, digits, `_`, `.`, `-`, `[`, `]`, and `*`
	 * for any characters. Nothing the tag's pattern would read as a separator.
	 */
	const NAME_PATTERN = '/^[A-Za-z0-9_.\-\[\]*]+$/D';

	/**
	 * The list as the tag reads it, or the first name it cannot take.
	 *
	 * @param string $typed The owner's list, commas and spaces between names.
	 * @return array{value: string}|array{refused: string} `value` is '' for the tag's default.
	 */
	public static function parse( $typed ) {
		$names = array_values( array_filter( array_map( 'trim', explode( ',', (string) $typed ) ), 'strlen' ) );
		foreach ( $names as $name ) {
			if ( ! preg_match( self::NAME_PATTERN, $name ) ) {
				return array( 'refused' => $name );
			}
			// A name of stars alone matches every name.
			if ( '' === trim( $name, '*' ) ) {
				return array( 'value' => self::ALL );
			}
		}
		return array( 'value' => implode( ',', array_unique( $names ) ) );
	}

	/**
	 * Whether the tag keeps every parameter, decided as the tag decides it for its own pixel: its list, read as
	 * snippet/src/tracker/pattern.ts reads it, matches the name `*`. Only then may the pixel's referrer be the page.
	 *
	 * @param string|null $kept The tag's data-keep-query, null when it has none (the campaign parameters).
	 */
	public static function keeps_all( $kept ) {
		if ( null === $kept ) {
			return false;
		}
		$pattern = str_replace( array( '\\*', '\\,', '\\ ' ), array( '.*', '|', '' ), (string) preg_replace( '/\W/', '\\\\$0', (string) $kept ) );
		return 1 === preg_match( '/^(' . $pattern . ')$/sD', self::ALL );
	}
}
