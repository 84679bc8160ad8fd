<?php
/**
 * Router for `php -S`: files and directories are served as they are, every other path goes to WordPress
 * (pretty permalinks, /wp-json/).
 *
 * @package Sitebeam\Tests
 */

$sitebeam_target = $_SERVER['DOCUMENT_ROOT'] . urldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
if ( is_file( $sitebeam_target ) || is_dir( $sitebeam_target ) ) {
	return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
