<?php
/**
 * Plugin Name:       Sitebeam
 * Description:       Visit tracker, every site email sent through the Sitebeam API, a contact form block and an AI chat block.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      8.2
 * Author:            Sitebeam
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       sitebeam
 * Domain Path:       /languages
 *
 * @package Sitebeam
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

if ( version_compare( PHP_VERSION, '7.4', '<' ) ) {
	return;
}

define( 'SITEBEAM_VERSION', '0.1.0' );
define( 'SITEBEAM_PLUGIN_FILE', __FILE__ );
define( 'SITEBEAM_PLUGIN_DIR', __DIR__ );

require __DIR__ . '/src/autoload.php';

register_activation_hook( __FILE__, array( 'Sitebeam\\Plugin', 'activate' ) );
register_deactivation_hook( __FILE__, array( 'Sitebeam\\Mail\\Outbox_Sender', 'deactivate' ) );

Sitebeam\Plugin::boot();
