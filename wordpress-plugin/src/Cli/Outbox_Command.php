<?php
/**
 * `wp sitebeam outbox run|list|delete`: the outbox from the system's cron, and from a shell.
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
 * Sends, lists or deletes the mail waiting in the Sitebeam outbox.
 */
final class Outbox_Command {

	/**
	 * Sends the mail that is due, oldest first, moving on past a mail that fails again, until none is due or the
	 * instance is down.
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
	 * Deletes mail from the outbox, unsent (each deletion is logged in the send log).
	 *
	 * ## OPTIONS
	 *
	 * --state=<state>
	 * : Which mail: failed (given up), waiting (not sent yet, but not the mail being sent at this moment), or all.
	 * ---
	 * options:
	 *   - failed
	 *   - waiting
	 *   - all
	 * ---
	 *
	 * [--kind=<kind>]
	 * : Only the site's own mail (site) or only contact-form messages (contact).
	 * ---
	 * options:
	 *   - site
	 *   - contact
	 * ---
	 *
	 * [--yes]
	 * : Deletes without asking (asked only for waiting or all mail, which was never delivered).
	 *
	 * ## EXAMPLES
	 *
	 *     # Delete every failed mail:
	 *     wp sitebeam outbox delete --state=failed
	 *
	 *     # Delete the contact messages a bot posted during an outage:
	 *     wp sitebeam outbox delete --state=waiting --kind=contact --yes
	 *
	 * @param string[]              $args       Positional arguments.
	 * @param array<string, string> $assoc_args Options.
	 */
	public function delete( $args, $assoc_args ) {
		$state = (string) ( $assoc_args['state'] ?? '' );
		$kind  = isset( $assoc_args['kind'] ) ? (string) $assoc_args['kind'] : null;
		$map   = array(
			'failed'  => Outbox::FAILED,
			'waiting' => Outbox::WAITING,
			'all'     => null,
		);
		if ( ! array_key_exists( $state, $map ) ) {
			WP_CLI::error( 'Give --state=failed, --state=waiting or --state=all.' );
		}
		if ( null !== $kind && ! in_array( $kind, array( Outbox::KIND_SITE, Outbox::KIND_CONTACT ), true ) ) {
			WP_CLI::error( 'Give --kind=site or --kind=contact, or leave --kind out for both.' );
		}
		if ( 'failed' !== $state ) {
			WP_CLI::confirm( sprintf( 'Delete %s mail that was never delivered?', 'all' === $state ? 'all the outbox\'s' : 'the waiting' ), $assoc_args );
		}
		$deleted = Outbox::delete_all( $map[ $state ], $kind );
		WP_CLI::success( sprintf( 'Deleted %d mails.', $deleted ) );
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
		WP_CLI\Utils\format_items( $assoc_args['format'] ?? 'table', $rows, array( 'id', 'state', 'kind', 'recipient', 'subject', 'tries', 'created_at', 'next_try', 'last_error' ) );
	}
}
