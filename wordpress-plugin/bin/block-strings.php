<?php
/**
 * Prints the translatable strings of block.json files as .pot entries, in the contexts WordPress translates them in
 * when it registers the block (title, description and each keyword: "block title", "block description",
 * "block keyword"), as `wp i18n make-pot` adds them. Used by make-pot.sh. Usage: php block-strings.php FILE...
 *
 * @package Sitebeam
 */

/**
 * A PO string literal.
 *
 * @param string $text The text.
 */
function sitebeam_po_string( $text ) {
	$escapes = array(
		'\\' => '\\\\',
		'"'  => '\\"',
		"\n" => '\\n',
		"\t" => '\\t',
	);
	return '"' . strtr( $text, $escapes ) . '"';
}

echo "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n"; // phpcs:ignore WordPress.Security.EscapeOutput -- a .pot file, not a page.
foreach ( array_slice( $argv, 1 ) as $sitebeam_file ) {
	$sitebeam_block   = json_decode( (string) file_get_contents( $sitebeam_file ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local file, outside WordPress.
	$sitebeam_strings = array(
		'block title'       => array( $sitebeam_block['title'] ?? '' ),
		'block description' => array( $sitebeam_block['description'] ?? '' ),
		'block keyword'     => $sitebeam_block['keywords'] ?? array(),
	);
	foreach ( $sitebeam_strings as $sitebeam_context => $sitebeam_texts ) {
		foreach ( array_filter( $sitebeam_texts ) as $sitebeam_text ) {
			echo "\n#: " . $sitebeam_file . "\nmsgctxt " . sitebeam_po_string( $sitebeam_context ) . "\nmsgid " . sitebeam_po_string( $sitebeam_text ) . "\nmsgstr \"\"\n"; // phpcs:ignore WordPress.Security.EscapeOutput -- a .pot file, not a page.
		}
	}
}
