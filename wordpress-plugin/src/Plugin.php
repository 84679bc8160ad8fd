<?php
/**
 * Registers the plugin's hooks; each handler is created only when its hook fires.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Registers the plugin's hooks; each handler is created only when its hook fires.
 */
final class Plugin {

	/**
	 * Registers the hooks.
	 */
	public static function boot() {
		add_action( 'init', array( self::class, 'action_init' ) );
		add_action(
			'wp_enqueue_scripts',
			static function () {
				( new Tracker\Script_Loader( Settings::get() ) )->action_wp_enqueue_scripts();
			}
		);
		add_filter(
			'pre_wp_mail',
			static function ( $short_circuit, $atts ) {
				return Mail\Api_Mailer::instance()->filter_pre_wp_mail( $short_circuit, $atts );
			},
			10,
			2
		);
		add_action(
			'rest_api_init',
			static function () {
				( new Contact\Rest_Controller() )->register();
				( new Chat\Chat_Controller() )->register();
				( new Chat\Console_Controller() )->register();
			}
		);
		Tracker\Consent::register();
		add_action( 'enqueue_block_editor_assets', array( Endpoint\Consent_Rule::class, 'action_enqueue_block_editor_assets' ) );
		add_filter( 'wp_privacy_personal_data_exporters', array( Privacy\Send_Log_Privacy::class, 'filter_exporters' ) );
		add_filter( 'wp_privacy_personal_data_erasers', array( Privacy\Send_Log_Privacy::class, 'filter_erasers' ) );
		add_filter( 'map_meta_cap', array( Chat\Chat_Capability::class, 'filter_map_meta_cap' ), 10, 3 );
		add_filter( 'cron_schedules', array( Mail\Outbox_Sender::class, 'filter_cron_schedules' ) ); // phpcs:ignore WordPress.WP.CronInterval.ChangeDetected -- a minute, as Action Scheduler's queue runner: mail reaches the instance within a minute of its return.
		add_action( Mail\Outbox_Sender::HOOK, array( Mail\Outbox_Sender::class, 'action_run' ) );
		add_action( Mail\Outbox_Sender::WATCH_HOOK, array( Mail\Outbox_Sender::class, 'action_run' ) );
		add_action( Mail\Outbox_Sender::PURGE_HOOK, array( Mail\Outbox_Sender::class, 'action_purge' ) );
		add_filter( 'wpmu_drop_tables', array( self::class, 'filter_wpmu_drop_tables' ), 10, 2 );
		add_filter( 'wp_privacy_personal_data_exporters', array( Privacy\Outbox_Privacy::class, 'filter_exporters' ) );
		add_filter( 'wp_privacy_personal_data_erasers', array( Privacy\Outbox_Privacy::class, 'filter_erasers' ) );
		if ( is_admin() ) {
			Admin\Admin::boot();
			Admin\Outbox_Page::boot();
			Admin\Instance_Url_Check::boot();
			add_action( 'after_plugin_row_' . plugin_basename( SITEBEAM_PLUGIN_FILE ), array( Admin\Deactivation_Warning::class, 'action_after_plugin_row' ), 10, 3 );
		}
		if ( defined( 'WP_CLI' ) && WP_CLI ) {
			\WP_CLI::add_command( 'sitebeam outbox', Cli\Outbox_Command::class );
		}
	}

	/**
	 * Activation: the options, the chat capability, the outbox's table, and delivery of mail that waited while the
	 * plugin was off.
	 */
	public static function activate() {
		Settings::create_options();
		Chat\Chat_Capability::grant();
		Mail\Outbox_Sender::resume();
	}

	/**
	 * A deleted subsite's outbox table goes with its other tables.
	 *
	 * @param string[] $tables  The site's tables WordPress drops.
	 * @param int      $site_id The site.
	 * @return string[]
	 */
	public static function filter_wpmu_drop_tables( $tables, $site_id ) {
		global $wpdb;
		$tables[] = $wpdb->get_blog_prefix( $site_id ) . Mail\Outbox::TABLE;
		return $tables;
	}

	/**
	 * Loads the translations and registers the contact form and the chat.
	 */
	public static function action_init() {
		load_plugin_textdomain( 'sitebeam', false, dirname( plugin_basename( SITEBEAM_PLUGIN_FILE ) ) . '/languages' );
		Contact\Contact_Form::register();
		Chat\Chat_Widget::register();
	}
}
