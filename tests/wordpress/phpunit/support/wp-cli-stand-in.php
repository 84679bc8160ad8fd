<?php
/**
 * The WP-CLI functions the outbox command calls, recording what they were given: WP-CLI itself is not in
 * Debian, so Outbox_Command_Test runs the command's methods as WP-CLI would call them, in a process of its own.
 *
 * @package Sitebeam\Tests
 */

// phpcs:disable Generic.Files.OneObjectStructurePerFile, Universal.Namespaces.DisallowCurlyBraceSyntax, Universal.Namespaces.OneDeclarationPerFile, Universal.Namespaces.DisallowDeclarationWithoutName

namespace {
	/**
	 * Records WP-CLI's messages.
	 */
	final class WP_CLI {
		/** @var array<int, array{0: string, 1: string}> Kind and text of each message. */
		public static $said = array();

		public static function success( $text ) {
			self::$said[] = array( 'success', $text );
		}

		public static function warning( $text ) {
			self::$said[] = array( 'warning', $text );
		}

		/** WP-CLI prints the error and exits with status 1. */
		public static function error( $text ) {
			self::$said[] = array( 'error', $text );
			throw new \RuntimeException( 'exit 1: ' . $text );
		}

		/** WP-CLI asks on the terminal unless --yes was given; here no one answers, which WP-CLI takes as no. */
		public static function confirm( $question, $assoc_args = array() ) {
			self::$said[] = array( 'confirm', $question );
			if ( empty( $assoc_args['yes'] ) ) {
				throw new \RuntimeException( 'exit 0: not confirmed' );
			}
		}
	}
}

namespace WP_CLI\Utils {
	/**
	 * Records the items a command lists.
	 *
	 * @param string                           $format Output format.
	 * @param array<int, array<string, mixed>> $items  Rows.
	 * @param string[]                         $fields Columns.
	 */
	function format_items( $format, $items, $fields ) {
		\WP_CLI::$said[] = array( 'items', wp_json_encode( compact( 'format', 'items', 'fields' ) ) );
	}
}
