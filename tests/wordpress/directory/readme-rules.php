<?php
/**
 * Plugin Check's readme and plugin header rules on a plugin folder (Readme_Rules): prints each finding and exits 1
 * when there is any, error or warning (each is something the directory's page would show wrong or truncated).
 * Usage: php readme-rules.php PLUGIN_DIR WORDPRESS_VERSION
 *
 * @package Sitebeam\Tests
 */

require __DIR__ . '/Readme_Rules.php';

if ( 3 !== $argc ) {
	fwrite( STDERR, "usage: php readme-rules.php PLUGIN_DIR WORDPRESS_VERSION\n" );
	exit( 2 );
}
$sitebeam_findings = Sitebeam\Tests\Directory\Readme_Rules::check( $argv[1], $argv[2] );
foreach ( $sitebeam_findings as $sitebeam_finding ) {
	echo $sitebeam_finding['type'] . ' ' . $sitebeam_finding['code'] . ': ' . $sitebeam_finding['message'] . "\n"; // phpcs:ignore WordPress.Security.EscapeOutput -- a terminal, not a page.
}
exit( $sitebeam_findings ? 1 : 0 );
