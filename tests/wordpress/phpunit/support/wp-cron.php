<?php
/**
 * Runs the test site's wp-cron.php in a process of its own, as a system cron runs `php wp-cron.php` every minute.
 * Outbox_Delivery_Test starts it, kills it with SIGKILL mid-send, and starts it again.
 *
 * @package Sitebeam\Tests
 */

$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/wp-cron.php';
$_SERVER['SERVER_NAME'] = $_SERVER['HTTP_HOST'];
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-cron.php';
