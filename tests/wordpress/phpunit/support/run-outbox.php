<?php
/**
 * One cron run of the outbox in a process of its own, as WP-Cron or `wp sitebeam outbox run` runs it: loads the test
 * WordPress and prints Outbox_Sender::run()'s result as JSON. Outbox_Test starts two side by side.
 *
 * @package Sitebeam\Tests
 */

$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/wp-cron.php';
$_SERVER['SERVER_NAME'] = $_SERVER['HTTP_HOST'];
define( 'DOING_CRON', true );
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-load.php';

echo wp_json_encode( Sitebeam\Mail\Outbox_Sender::run() ), "\n";
