<?php
/**
 * The plugins screen warns, under Sitebeam's row, that deactivating it stops the delivery of the mail that waits.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Outbox;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The plugins screen warns, under Sitebeam's row, that deactivating it stops the delivery of the mail that waits.
 *
 * Said before the owner deactivates, because no code of the plugin runs after: the mail stays in the table, and
 * activating the plugin again sends it at the next cron run.
 */
final class Deactivation_Warning {

	/**
	 * Prints the warning row while mail waits in this site's outbox and the plugin is active.
	 *
	 * @param string $plugin_file The plugin's file, relative to the plugins folder.
	 */
	public static function action_after_plugin_row( $plugin_file ) {
		if ( ! current_user_can( 'manage_options' ) || ! ( is_plugin_active( $plugin_file ) ) ) {
			return;
		}
		$waiting = Outbox::summary()['waiting'];
		if ( 0 === $waiting ) {
			return;
		}
		global $wp_list_table;
		printf(
			'<tr class="plugin-update-tr active sitebeam-deactivation-warning"><td colspan="%d" class="plugin-update colspanchange"><div class="notice inline notice-warning notice-alt"><p>%s <a href="%s">%s</a></p></div></td></tr>',
			(int) ( $wp_list_table instanceof \WP_List_Table ? $wp_list_table->get_column_count() : 3 ),
			esc_html(
				sprintf(
					/* translators: %d: mails waiting. */
					_n(
						'%d mail waits in the Sitebeam outbox for the instance. Deactivating Sitebeam stops its delivery: it stays in the database and is sent once Sitebeam is activated again.',
						'%d mails wait in the Sitebeam outbox for the instance. Deactivating Sitebeam stops their delivery: they stay in the database and are sent once Sitebeam is activated again.',
						$waiting,
						'sitebeam'
					),
					$waiting
				)
			),
			esc_url( admin_url( 'tools.php?page=' . Outbox_Page::SLUG ) ),
			esc_html__( 'See the outbox', 'sitebeam' )
		);
	}
}
