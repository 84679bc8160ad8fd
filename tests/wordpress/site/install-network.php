<?php
/**
 * Turns the freshly installed site of tests/wordpress/env.sh into a multisite network, in two runs as
 * WP-CLI's multisite-convert does: `tables` (WP_ALLOW_MULTISITE) creates the network's tables and rows;
 * `sites` (MULTISITE) adds a second site, network-activates the plugin and moves its settings to the network.
 *
 * @package Sitebeam\Tests
 */

define( 'WP_INSTALLING', true );
$sitebeam_domain        = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['HTTP_HOST']   = $sitebeam_domain;
$_SERVER['REQUEST_URI'] = '/';
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

if ( 'tables' === ( $argv[1] ?? '' ) ) {
	require_once ABSPATH . 'wp-admin/includes/network.php';
	// As wp-admin/network.php does: a single site's $wpdb does not name the network's tables yet.
	foreach ( $wpdb->tables( 'ms_global' ) as $sitebeam_table => $sitebeam_prefixed_table ) {
		$wpdb->$sitebeam_table = $sitebeam_prefixed_table;
	}
	install_network();
	$sitebeam_result = populate_network( 1, $sitebeam_domain, 'admin@example.com', 'Sitebeam test network', '/', false );
	if ( is_wp_error( $sitebeam_result ) ) {
		fwrite( STDERR, 'install-network: ' . $sitebeam_result->get_error_message() . "\n" );
		exit( 1 );
	}
	exit( 0 );
}

$sitebeam_site = wpmu_create_blog( $sitebeam_domain, '/second/', 'Second site', 1 );
if ( is_wp_error( $sitebeam_site ) ) {
	fwrite( STDERR, 'install-network: ' . $sitebeam_site->get_error_message() . "\n" );
	exit( 1 );
}
$sitebeam_activated = activate_plugin( 'sitebeam/sitebeam.php', '', true );
if ( is_wp_error( $sitebeam_activated ) ) {
	fwrite( STDERR, 'install-network: ' . $sitebeam_activated->get_error_message() . "\n" );
	exit( 1 );
}
update_site_option( Sitebeam\Settings::OPTION, get_option( Sitebeam\Settings::OPTION ) );
update_site_option( Sitebeam\Settings::TOKEN_OPTION, get_option( Sitebeam\Settings::TOKEN_OPTION ) );
delete_option( Sitebeam\Settings::OPTION );
delete_option( Sitebeam\Settings::TOKEN_OPTION );
echo 'install-network: WordPress ' . get_bloginfo( 'version' ) . ' network at ' . esc_url_raw( network_home_url() ) . ", sites 1 and $sitebeam_site, plugin network-active\n";
