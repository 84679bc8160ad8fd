<?php
/**
 * Loads the real WordPress of the test environment (tests/wordpress/env.sh) with the plugin active.
 *
 * @package Sitebeam\Tests
 */

// PHPUnit includes this file inside a method and then copies its new local variables into $GLOBALS,
// which would overwrite WordPress globals first assigned in file scope (as WordPress's own test bootstrap notes).
global $wpdb, $current_site, $current_blog, $wp_rewrite, $shortcode_tags, $wp, $phpmailer, $wp_theme_directories;

$sitebeam_root = getenv( 'SITEBEAM_WP_ROOT' );
if ( ! $sitebeam_root || ! is_file( $sitebeam_root . '/wp-load.php' ) ) {
	fwrite( STDERR, "SITEBEAM_WP_ROOT must point at the test WordPress: run these tests through tests/wordpress/run.sh\n" );
	exit( 1 );
}
// A deprecation raised in the plugin or in these tests fails the run (on PHPUnit 12 and later: the PHP 8.5 run).
require dirname( __DIR__, 2 ) . '/support/own-deprecations.php';
sitebeam_fail_on_own_deprecations( array( $sitebeam_root . '/wp-content/plugins/sitebeam', dirname( __DIR__, 2 ) ) );

$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_NAME'] = $_SERVER['HTTP_HOST'];
$_SERVER['REMOTE_ADDR'] = '127.0.0.1';

require $sitebeam_root . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/template.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
require __DIR__ . '/Stub.php';
require __DIR__ . '/Raw_Http.php';
require __DIR__ . '/Fake_Service.php';
require __DIR__ . '/support/Clock.php';
require __DIR__ . '/Plugin_Test_Case.php';

if ( ! is_plugin_active( 'sitebeam/sitebeam.php' ) || ! class_exists( 'Sitebeam\\Plugin' ) ) {
	fwrite( STDERR, "The Sitebeam plugin is not active in the test WordPress\n" );
	exit( 1 );
}
