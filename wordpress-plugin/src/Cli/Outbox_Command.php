<?php
/**
 * `wp sitebeam outbox run|list`: the outbox from the system's cron, and from a shell.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Cli;

use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;
use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Sends or lists the mail waiting in the Sitebeam outbox.
 */
final class Outbox_Command {

	/**
	 * Sends the mail that is due, oldest first, until none is due or the instance fails.
	 *
	 * ## OPTIONS
	 *
	 * [--now]
	 * : Makes every waiting and failed mail due first (as the outbox screen's Send now).
	 *
	 * ## EXAMPLES
	 *
	 *     # From the system's crontab, every minute:
	 *     * * * * * wp --path=/var/www/html sitebeam outbox run --quiet
	 *
	 * @param string[]              $args       Positional arguments.
	 * @param array<string, string> $assoc_args Options.
	 */
	public function run( $args, $assoc_args ) {
		if ( ! empty( $assoc_args['now'] ) ) {
			Outbox::make_due();
		}
		$done = Outbox_Sender::run( null );
		if ( $done['locked'] ) {
			WP_CLI::warning( 'Another sender is sending the outbox: nothing sent.' );
			return;
		}
		$left = Outbox::summary();
		WP_CLI::success( sprintf( 'Sent %d, given up %d; %d waiting, %d failed.', $done['sent'], $done['failed'], $left['waiting'], $left['failed'] ) );
	}

	/**
	 * Lists the mail in the outbox, oldest first.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : table, csv, json or yaml.
	 * ---
	 * default: table
	 * ---
	 *
	 * @subcommand list
	 *
	 * @param string[]              $args       Positional arguments.
	 * @param array<string, string> $assoc_args Options.
	 */
	public function list_( $args, $assoc_args ) {
		$rows = array_map(
			static function ( $row ) {
				$row['created_at'] = gmdate( 'Y-m-d H:i:s', (int) $row['created_at'] );
				$row['next_try']   = gmdate( 'Y-m-d H:i:s', (int) $row['next_try'] );
				return $row;
			},
			Outbox::rows( 1000 )
		);
		WP_CLI\Utils\format_items( $assoc_args['format'] ?? 'table', $rows, array( 'id', 'state', 'recipient', 'subject', 'tries', 'created_at', 'next_try', 'last_error' ) );
	}
}
