<?php
/**
 * The upgrade test's hands on the test site (Upgrade_Test.php), one step per PHP process, as each request of a
 * real site is: the plugin code a step runs is the code installed when the step starts.
 *
 * Usage: php upgrade-site.php STEP [ARGUMENT], with SITEBEAM_WP_ROOT and SITEBEAM_WP_URL set (tests/wordpress/env.sh).
 * Prints its outcome as one line of JSON.
 * - remove: deactivates and uninstalls the plugin the site has, and deletes its files;
 * - install ZIP: installs ZIP as Plugins → Add New Plugin → Upload Plugin does, and activates it;
 * - configure JSON: saves those settings over the plugin's defaults (as its settings page stores them), and a token;
 * - send MARKER: wp_mail() to upgrade@example.com, MARKER in the subject;
 * - replace ZIP: replaces the installed plugin with ZIP as Upload Plugin → "Replace current with uploaded" does;
 * - state: the plugin's version, its effective settings and token, its outbox and its upgrade marks;
 * - deliver: makes the waiting mail due and runs the outbox's cron event once, as WP-Cron would;
 * - cookie: the logged-in cookie of the administrator, for an admin page load over HTTP.
 *
 * @package Sitebeam\Tests
 */

$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/';
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
require_once ABSPATH . 'wp-admin/includes/file.php';
require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';

const SITEBEAM_UPGRADE_PLUGIN = 'sitebeam/sitebeam.php';

/**
 * Runs Plugin_Upgrader::install() on a zip, as the Upload Plugin screen does (update.php?action=upload-plugin).
 *
 * @param string $zip       The package.
 * @param bool   $overwrite Whether it replaces the installed plugin ("Replace current with uploaded").
 * @return array<string, mixed>
 */
function sitebeam_upgrade_install( $zip, $overwrite ) {
	$skin     = new Automatic_Upgrader_Skin();
	$upgrader = new Plugin_Upgrader( $skin );
	$result   = $upgrader->install( $zip, array( 'overwrite_package' => $overwrite ) );
	return array(
		'installed' => true === $result,
		'error'     => is_wp_error( $result ) ? $result->get_error_message() : null,
		'messages'  => $skin->get_upgrade_messages(),
		'plugin'    => $upgrader->plugin_info(),
	);
}

wp_set_current_user( 1 );
$sitebeam_step = $argv[1] ?? '';
$sitebeam_arg  = $argv[2] ?? '';
switch ( $sitebeam_step ) {
	case 'remove':
		deactivate_plugins( SITEBEAM_UPGRADE_PLUGIN );
		uninstall_plugin( SITEBEAM_UPGRADE_PLUGIN );
		$sitebeam_outcome = array( 'deleted' => true === delete_plugins( array( SITEBEAM_UPGRADE_PLUGIN ) ) );
		break;
	case 'install':
		$sitebeam_outcome = sitebeam_upgrade_install( $sitebeam_arg, false );
		$sitebeam_outcome['activated'] = null === activate_plugin( SITEBEAM_UPGRADE_PLUGIN );
		break;
	case 'configure':
		$sitebeam_changes = json_decode( $sitebeam_arg, true );
		update_option( Sitebeam\Settings::OPTION, array_merge( Sitebeam\Settings::defaults(), $sitebeam_changes['settings'] ) );
		update_option( Sitebeam\Settings::TOKEN_OPTION, $sitebeam_changes['token'], false );
		$sitebeam_outcome = array( 'settings' => Sitebeam\Settings::get() );
		break;
	case 'send':
		$sitebeam_outcome = array( 'sent' => wp_mail( 'upgrade@example.com', $sitebeam_arg . ' kept across the upgrade', 'Sent before the upgrade.' ) );
		break;
	case 'replace':
		$sitebeam_outcome = sitebeam_upgrade_install( $sitebeam_arg, true );
		break;
	case 'state':
		$sitebeam_outcome = array(
			'version'              => get_plugin_data( WP_PLUGIN_DIR . '/' . SITEBEAM_UPGRADE_PLUGIN, false, false )['Version'],
			'active'               => is_plugin_active( SITEBEAM_UPGRADE_PLUGIN ),
			'settings'             => Sitebeam\Settings::get(),
			'token'                => Sitebeam\Settings::token(),
			'outbox'               => Sitebeam\Mail\Outbox::rows(),
			'outbox_db_version'    => (int) get_option( Sitebeam\Mail\Outbox::VERSION_OPTION ),
			'outbox_code_version'  => Sitebeam\Mail\Outbox::DB_VERSION,
			'capabilities_version' => (int) get_option( Sitebeam\Chat\Chat_Capability::VERSION_OPTION ),
			'capabilities_code'    => Sitebeam\Chat\Chat_Capability::VERSION,
		);
		break;
	case 'deliver':
		Sitebeam\Mail\Outbox::make_due();
		do_action( Sitebeam\Mail\Outbox_Sender::HOOK );
		$sitebeam_outcome = array( 'outbox' => Sitebeam\Mail\Outbox::rows() );
		break;
	case 'cookie':
		$sitebeam_expires = time() + HOUR_IN_SECONDS;
		$sitebeam_outcome = array(
			'name'  => LOGGED_IN_COOKIE,
			'value' => wp_generate_auth_cookie( 1, $sitebeam_expires, 'logged_in' ),
			'auth'  => AUTH_COOKIE,
			'token' => wp_generate_auth_cookie( 1, $sitebeam_expires, 'auth' ),
		);
		break;
	default:
		fwrite( STDERR, "upgrade-site.php: unknown step '$sitebeam_step'\n" );
		exit( 2 );
}
echo wp_json_encode( $sitebeam_outcome ), "\n";
