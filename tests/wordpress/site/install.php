<?php
/**
 * Installs the test site (no WP-CLI in Debian), activates the plugin installed from the zip, and points it at the stub.
 *
 * @package Sitebeam\Tests
 */

define( 'WP_INSTALLING', true );
$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/';
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

wp_install( 'Sitebeam test site', getenv( 'SITEBEAM_WP_ADMIN_USER' ), 'admin@example.com', true, '', wp_slash( getenv( 'SITEBEAM_WP_ADMIN_PASSWORD' ) ) );
update_option( 'permalink_structure', '/%postname%/' );
flush_rewrite_rules();
wp_insert_user(
	array(
		'user_login' => 'subscriber',
		'user_pass'  => 'subscriber-password',
		'user_email' => 'subscriber@example.com',
		'role'       => 'subscriber',
	)
);

$sitebeam_activated = activate_plugin( 'sitebeam/sitebeam.php' );
if ( is_wp_error( $sitebeam_activated ) ) {
	fwrite( STDERR, 'install: ' . $sitebeam_activated->get_error_message() . "\n" );
	exit( 1 );
}
update_option(
	'sitebeam_settings',
	array_merge(
		Sitebeam\Settings::defaults(),
		array(
			'api_url'    => getenv( 'SITEBEAM_STUB_URL' ),
			'website'    => 'wp-test.example',
			'contact_to' => 'owner@example.com',
		)
	)
);
update_option( 'sitebeam_api_token', getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), false );
// What DELETE /wp-json/sitebeam-test/v1/site (tests/wordpress/site/sitebeam-test-support.php) brings back.
update_option( SITEBEAM_TEST_INSTALLED . '_settings', get_option( 'sitebeam_settings' ), false );
update_option(
	SITEBEAM_TEST_INSTALLED . '_posts',
	get_posts(
		array(
			'post_type'   => array( 'post', 'page' ),
			'post_status' => 'any',
			'numberposts' => -1,
			'fields'      => 'ids',
		)
	),
	false
);
echo 'install: WordPress ' . get_bloginfo( 'version' ) . ", theme " . get_stylesheet() . ", plugin active\n";
