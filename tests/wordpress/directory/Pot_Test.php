<?php
/**
 * The translation template carries every translatable string of the blocks' block.json, in the context WordPress
 * translates it in when it registers the block ("block title", "block description", "block keyword").
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests\Directory;

use PHPUnit\Framework\TestCase;

/**
 * Reads languages/sitebeam.pot as gettext does (contexts, strings split over lines, escapes).
 */
final class Pot_Test extends TestCase {

	const PLUGIN = __DIR__ . '/../../../wordpress-plugin';

	/**
	 * Every (context, string) pair of a .pot file, as "context\x04string" keys.
	 *
	 * @param string $pot The .pot file's text.
	 * @return array<string, true>
	 */
	private static function entries( $pot ) {
		$entries = array();
		foreach ( preg_split( '/\n\s*\n/', str_replace( "\r\n", "\n", $pot ) ) as $block ) {
			$fields = array(
				'msgctxt' => '',
				'msgid'   => '',
			);
			$field  = null;
			foreach ( explode( "\n", $block ) as $line ) {
				if ( preg_match( '/^(msgctxt|msgid|msgid_plural|msgstr\S*) "(.*)"$/', $line, $match ) ) {
					$field = $match[1];
					$fields[ $field ] = stripcslashes( $match[2] );
				} elseif ( null !== $field && preg_match( '/^"(.*)"$/', $line, $match ) ) {
					$fields[ $field ] .= stripcslashes( $match[1] );
				}
			}
			if ( '' !== $fields['msgid'] ) {
				$entries[ $fields['msgctxt'] . "\x04" . $fields['msgid'] ] = true;
			}
		}
		return $entries;
	}

	/**
	 * Each block.json's translatable strings, with their contexts.
	 *
	 * @return array<string, array{0: string, 1: string, 2: string}>
	 */
	public static function block_strings() {
		$cases = array();
		foreach ( glob( self::PLUGIN . '/blocks/*/block.json' ) as $file ) {
			$block = json_decode( (string) file_get_contents( $file ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local file, outside WordPress.
			$name    = basename( dirname( $file ) );
			$strings = array( array( 'block title', $block['title'] ), array( 'block description', $block['description'] ) );
			foreach ( $block['keywords'] ?? array() as $keyword ) {
				$strings[] = array( 'block keyword', $keyword );
			}
			foreach ( $strings as list( $context, $text ) ) {
				$cases[ "$name: $context $text" ] = array( $name, $context, $text );
			}
		}
		return $cases;
	}

	public function test_the_plugin_has_blocks_with_strings() {
		$this->assertGreaterThanOrEqual( 10, count( self::block_strings() ), 'two blocks: their titles, descriptions and keywords' );
	}

	/**
	 * The .pot carries the string in its context.
	 *
	 * @dataProvider block_strings
	 *
	 * @param string $block   The block's folder.
	 * @param string $context The context WordPress translates it in.
	 * @param string $text    The string.
	 */
	public function test_the_pot_carries_the_block_string( $block, $context, $text ) {
		$pot = (string) file_get_contents( self::PLUGIN . '/languages/sitebeam.pot' ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local file, outside WordPress.
		$this->assertArrayHasKey( $context . "\x04" . $text, self::entries( $pot ), "languages/sitebeam.pot lacks \"$text\" ($context, blocks/$block/block.json): run wordpress-plugin/bin/make-pot.sh" );
	}
}
