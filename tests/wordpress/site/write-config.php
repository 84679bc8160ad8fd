<?php
/**
 * Prints the test site's wp-config.php from the environment env.sh sets.
 *
 * @package Sitebeam\Tests
 */

$sitebeam_network    = getenv( 'WP_ENV_NETWORK' ); // '' (a single site), 'allow' (converting) or the network's domain.
$sitebeam_constants = array(
	'DB_NAME'                    => getenv( 'WP_ENV_DB_NAME' ) ? getenv( 'WP_ENV_DB_NAME' ) : 'wordpress',
	'DB_USER'                    => 'wp',
	'DB_PASSWORD'                => 'wp',
	'DB_HOST'                    => getenv( 'WP_ENV_DB_HOST' ),
	'DB_CHARSET'                 => 'utf8mb4',
	'WP_HOME'                    => getenv( 'SITEBEAM_WP_URL' ),
	'WP_SITEURL'                 => getenv( 'SITEBEAM_WP_URL' ),
	'WP_DEBUG'                   => true,
	'WP_DEBUG_LOG'               => getenv( 'SITEBEAM_WP_DEBUG_LOG' ),
	'WP_DEBUG_DISPLAY'           => false,
	'DISABLE_WP_CRON'            => true,
	'AUTOMATIC_UPDATER_DISABLED' => true,
	'WP_HTTP_BLOCK_EXTERNAL'     => true,
	'FS_METHOD'                  => 'direct',
	// SITEBEAM_ALLOW_PRIVATE_HOSTS (the stub listens on 127.0.0.1) is defined by the test site's must-use plugin,
	// sitebeam-test-support.php, which a test can tell to leave it out.
);
if ( $sitebeam_network ) {
	// A network's sites have their own URLs: WP_HOME would send every one of them to the main site.
	unset( $sitebeam_constants['WP_HOME'], $sitebeam_constants['WP_SITEURL'] );
	$sitebeam_constants['WP_ACCESSIBLE_HOSTS'] = '127.0.0.1';
	$sitebeam_constants['WP_ALLOW_MULTISITE']  = true;
}
if ( $sitebeam_network && 'allow' !== $sitebeam_network ) {
	$sitebeam_constants += array(
		'MULTISITE'            => true,
		'SUBDOMAIN_INSTALL'    => false,
		'DOMAIN_CURRENT_SITE'  => $sitebeam_network,
		'PATH_CURRENT_SITE'    => '/',
		'SITE_ID_CURRENT_SITE' => 1,
		'BLOG_ID_CURRENT_SITE' => 1,
	);
}
foreach ( array( 'AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE' ) as $sitebeam_scheme ) {
	$sitebeam_constants[ $sitebeam_scheme . '_KEY' ]  = bin2hex( random_bytes( 32 ) );
	$sitebeam_constants[ $sitebeam_scheme . '_SALT' ] = bin2hex( random_bytes( 32 ) );
}

echo "<?php\n";
foreach ( $sitebeam_constants as $sitebeam_name => $sitebeam_value ) {
	echo 'define( ' . var_export( $sitebeam_name, true ) . ', ' . var_export( $sitebeam_value, true ) . " );\n"; // phpcs:ignore -- prints PHP source.
}
echo "\$table_prefix = 'wp_';\n";
echo "if ( ! defined( 'ABSPATH' ) ) {\n\tdefine( 'ABSPATH', __DIR__ . '/' );\n}\n";
echo "require_once ABSPATH . 'wp-settings.php';\n";
