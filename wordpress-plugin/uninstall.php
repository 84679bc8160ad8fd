<?php
/**
 * Removes every option, the send log and the rate-limit counters.
 *
 * @package Sitebeam
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

delete_option( 'sitebeam_settings' );
delete_option( 'sitebeam_api_token' );
delete_option( 'sitebeam_mail_log' );

global $wpdb;
$wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- transients have no delete-by-prefix API.
	$wpdb->prepare(
		"DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s",
		$wpdb->esc_like( '_transient_sitebeam_' ) . '%',
		$wpdb->esc_like( '_transient_timeout_sitebeam_' ) . '%',
		$wpdb->esc_like( '_site_transient_sitebeam_' ) . '%',
		$wpdb->esc_like( '_site_transient_timeout_sitebeam_' ) . '%'
	)
);
