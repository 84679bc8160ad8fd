<?php
/**
 * Removes every option, the send log, the outbox table and its cron events, the rate-limit and daily chat counters and the chat console's capability: on multisite, the network's settings and
 * what every site of the network stored.
 *
 * @package Sitebeam
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

/**
 * Deletes the options and transients one site stored, and the chat console's capability from its roles.
 */
function sitebeam_uninstall_site() {
	global $wpdb;
	foreach ( wp_roles()->role_objects as $sitebeam_role ) {
		$sitebeam_role->remove_cap( 'sitebeam_use_chat' );
	}
	delete_option( 'sitebeam_capabilities_version' );
	delete_option( 'sitebeam_settings' );
	delete_option( 'sitebeam_api_token' );
	delete_option( 'sitebeam_mail_log' );
	delete_option( 'sitebeam_outbox_db_version' );
	delete_option( 'sitebeam_outbox_lock' );
	delete_option( 'sitebeam_outbox_drained' );
	delete_option( 'sitebeam_delivery_state' );
	foreach ( array( 'sitebeam_outbox_run', 'sitebeam_outbox_watch', 'sitebeam_outbox_purge' ) as $sitebeam_hook ) {
		wp_clear_scheduled_hook( $sitebeam_hook );
	}
	$wpdb->query( "DROP TABLE IF EXISTS {$wpdb->prefix}sitebeam_outbox" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.SchemaChange -- the outbox table (mail waiting for the instance) goes with the plugin.
	delete_transient( 'sitebeam_models' ); // Also from a persistent object cache, which the query below does not reach.
	$wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- transients have no delete-by-prefix API.
		$wpdb->prepare(
			"DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s",
			$wpdb->esc_like( 'sitebeam_chat_day_' ) . '%',
			$wpdb->esc_like( 'sitebeam_rl_' ) . '%',
			$wpdb->esc_like( '_transient_sitebeam_' ) . '%',
			$wpdb->esc_like( '_transient_timeout_sitebeam_' ) . '%',
			$wpdb->esc_like( '_site_transient_sitebeam_' ) . '%',
			$wpdb->esc_like( '_site_transient_timeout_sitebeam_' ) . '%'
		)
	);
}

if ( ! is_multisite() ) {
	sitebeam_uninstall_site();
	return;
}

global $wpdb;
delete_site_option( 'sitebeam_settings' );
delete_site_option( 'sitebeam_api_token' );
delete_site_option( 'sitebeam_delivery_state' );
delete_site_transient( 'sitebeam_models' );
$wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- site transients have no delete-by-prefix API.
	$wpdb->prepare(
		"DELETE FROM {$wpdb->sitemeta} WHERE meta_key LIKE %s OR meta_key LIKE %s",
		$wpdb->esc_like( '_site_transient_sitebeam_' ) . '%',
		$wpdb->esc_like( '_site_transient_timeout_sitebeam_' ) . '%'
	)
);
foreach ( get_sites(
	array(
		'fields' => 'ids',
		'number' => 0,
	)
) as $sitebeam_site_id ) {
	switch_to_blog( $sitebeam_site_id );
	sitebeam_uninstall_site();
	restore_current_blog();
}
