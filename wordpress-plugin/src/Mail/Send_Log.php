<?php
/**
 * The last sends, for the settings page: time, recipient, subject and result, never bodies; one entry per recipient
 * (each gets their own copy through the API), so an entry names no one but its recipient and the privacy tools
 * never have to hide a Cc or a Bcc from another.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The last sends, for the settings page: time, recipients, subject and result, never bodies.
 *
 * A mail that was not delivered stays findable however many mails follow it: the log keeps its newest SIZE entries,
 * and beyond them older failures and deletions, up to UNDELIVERED_KEPT of those.
 */
final class Send_Log {

	const OPTION = 'sitebeam_mail_log';
	const SIZE   = 50;

	/** Failed and deleted mail kept in the log (within the newest SIZE entries or beyond them). */
	const UNDELIVERED_KEPT = 50;

	const SENT   = 'sent';
	const FAILED = 'failed';
	/** The API failed and the mail was handed to WordPress's own mailer, whose outcome is not known (yet). */
	const FALLEN_BACK = 'fallback';
	/** The API failed and WordPress's own mailer sent it. */
	const FALLBACK_SENT = 'fallback_sent';
	/** The API failed and WordPress's own mailer failed too. */
	const FALLBACK_FAILED = 'fallback_failed';
	const QUEUED          = 'queued';
	/** Deleted from the outbox by the owner: never sent. */
	const DELETED = 'deleted';

	const UNDELIVERED = array( self::FAILED, self::FALLBACK_FAILED, self::DELETED );

	/**
	 * The recipients handed to WordPress's mailer in this request, whose outcome is still to be recorded (bare
	 * addresses, lower case).
	 *
	 * @var string[]
	 */
	private static $awaited = array();

	/**
	 * Records one send: an entry for each recipient, in their order, above the older ones.
	 *
	 * @param string[] $recipients Addresses.
	 * @param string   $subject    Subject line.
	 * @param string   $result     One of the result constants.
	 * @param string   $detail     Why it failed, for people.
	 */
	public static function record( array $recipients, $subject, $result, $detail = '' ) {
		$sent = array();
		foreach ( array_values( $recipients ) as $recipient ) {
			$sent[] = array(
				'time'       => time(),
				'recipients' => array( (string) $recipient ),
				'subject'    => (string) $subject,
				'result'     => $result,
				'detail'     => (string) $detail,
			);
		}
		if ( array() === $sent ) {
			return;
		}
		self::store( array_merge( $sent, self::entries() ) );
		if ( self::FALLEN_BACK === $result ) {
			self::await_fallback( $recipients );
		}
	}

	/**
	 * Saves the log: the newest SIZE entries, and older undelivered ones while fewer than UNDELIVERED_KEPT are kept.
	 *
	 * @param array<int, array<string, mixed>> $entries Newest first.
	 */
	private static function store( array $entries ) {
		$kept        = array_slice( $entries, 0, self::SIZE );
		$undelivered = count( array_filter( $kept, array( self::class, 'is_undelivered' ) ) );
		foreach ( array_slice( $entries, self::SIZE ) as $entry ) {
			if ( $undelivered >= self::UNDELIVERED_KEPT ) {
				break;
			}
			if ( self::is_undelivered( $entry ) ) {
				$kept[] = $entry;
				++$undelivered;
			}
		}
		update_option( self::OPTION, $kept, false );
	}

	/**
	 * Whether an entry is of a mail that did not reach its recipient.
	 *
	 * @param array<string, mixed> $entry One entry.
	 */
	private static function is_undelivered( array $entry ) {
		return in_array( $entry['result'] ?? '', self::UNDELIVERED, true );
	}

	/**
	 * Listens for what WordPress's mailer does with the mail handed to it, to record its real outcome.
	 *
	 * @param string[] $recipients Addresses handed to it.
	 */
	private static function await_fallback( array $recipients ) {
		foreach ( $recipients as $recipient ) {
			self::$awaited[] = strtolower( self::bare( (string) $recipient ) );
		}
		foreach ( array( 'wp_mail_succeeded', 'wp_mail_failed' ) as $hook ) {
			if ( ! has_action( $hook, array( self::class, 'action_' . $hook ) ) ) {
				add_action( $hook, array( self::class, 'action_' . $hook ) );
			}
		}
	}

	/**
	 * WordPress's mailer sent a mail: the fallback entries of its recipients say so.
	 *
	 * @param array<string, mixed> $mail wp_mail's to, subject, message, headers, attachments.
	 */
	public static function action_wp_mail_succeeded( $mail ) {
		self::settle( (array) $mail, self::FALLBACK_SENT, '' );
	}

	/**
	 * WordPress's mailer failed: the fallback entries of its recipients say so, and why. (Sitebeam's own
	 * wp_mail_failed, which carries the API's error code, is not the fallback's.)
	 *
	 * @param WP_Error $error wp_mail's error.
	 */
	public static function action_wp_mail_failed( $error ) {
		if ( ! $error instanceof WP_Error ) {
			return;
		}
		$data = (array) $error->get_error_data();
		if ( ! isset( $data['sitebeam_error_code'] ) ) {
			self::settle( $data, self::FALLBACK_FAILED, $error->get_error_message() );
		}
	}

	/**
	 * Turns the newest fallback entry of each awaited recipient the mail names (in To or in its headers) into its
	 * outcome.
	 *
	 * @param array<string, mixed> $mail   wp_mail's arguments.
	 * @param string               $result FALLBACK_SENT or FALLBACK_FAILED.
	 * @param string               $why    The mailer's error, for a failure.
	 */
	private static function settle( array $mail, $result, $why ) {
		$headers = $mail['headers'] ?? '';
		$named   = strtolower( implode( ' ', array_map( 'strval', (array) ( $mail['to'] ?? array() ) ) ) . "\n" . ( is_array( $headers ) ? implode( "\n", $headers ) : (string) $headers ) );
		$settled = array();
		foreach ( self::$awaited as $index => $address ) {
			if ( '' !== $address && false !== strpos( $named, $address ) ) {
				$settled[] = $address;
				unset( self::$awaited[ $index ] );
			}
		}
		if ( array() === $settled ) {
			return;
		}
		$entries = self::entries();
		foreach ( $entries as $index => $entry ) {
			$address = strtolower( self::bare( (string) ( $entry['recipients'][0] ?? '' ) ) );
			$found   = array_search( $address, $settled, true );
			if ( self::FALLEN_BACK !== $entry['result'] || false === $found ) {
				continue;
			}
			unset( $settled[ $found ] );
			$entries[ $index ]['result'] = $result;
			if ( '' !== $why ) {
				/* translators: 1: why the API failed, 2: why WordPress's own mailer failed. */
				$entries[ $index ]['detail'] = sprintf( __( '%1$s WordPress’s own mailer failed too: %2$s', 'sitebeam' ), $entry['detail'], $why );
			}
		}
		self::store( $entries );
	}

	/**
	 * The recorded sends, newest first.
	 *
	 * @return array<int, array{time: int, recipients: string[], subject: string, result: string, detail: string}> Newest first.
	 */
	public static function entries() {
		$stored  = get_option( self::OPTION, array() );
		$entries = array();
		// An entry an earlier version recorded for several recipients reads as one entry each, and is stored so at
		// the next write.
		foreach ( is_array( $stored ) ? $stored : array() as $entry ) {
			foreach ( (array) ( $entry['recipients'] ?? array() ) as $recipient ) {
				$entries[] = array_merge( $entry, array( 'recipients' => array( (string) $recipient ) ) );
			}
		}
		return $entries;
	}

	/**
	 * The recorded sends to an address, newest first, each naming that address only: an entry an earlier version
	 * recorded for several recipients at once keeps the others to itself.
	 *
	 * @param string $address A bare address; compared without case.
	 * @return array<int, array{time: int, recipients: string[], subject: string, result: string, detail: string}>
	 */
	public static function entries_for( $address ) {
		$found = array();
		foreach ( self::entries() as $entry ) {
			$own = self::own( $entry, $address );
			if ( array() !== $own ) {
				$found[] = array_merge( $entry, array( 'recipients' => $own ) );
			}
		}
		return $found;
	}

	/**
	 * Removes an address from the recorded sends: its entries go, and an entry an earlier version recorded for several
	 * recipients keeps the others.
	 *
	 * @param string $address A bare address; compared without case.
	 * @return int How many times the address was removed.
	 */
	public static function forget( $address ) {
		$removed = 0;
		$kept    = array();
		foreach ( self::entries() as $entry ) {
			$own      = self::own( $entry, $address );
			$removed += count( $own );
			$others   = array_values( array_diff( (array) ( $entry['recipients'] ?? array() ), $own ) );
			if ( array() === $own ) {
				$kept[] = $entry;
			} elseif ( array() !== $others ) {
				$kept[] = array_merge( $entry, array( 'recipients' => $others ) );
			}
		}
		if ( $removed > 0 ) {
			update_option( self::OPTION, $kept, false );
		}
		return $removed;
	}

	/**
	 * An entry's recipients that are the address, bare or as `Name <address>`.
	 *
	 * @param array<string, mixed> $entry   One entry.
	 * @param string               $address A bare address.
	 * @return string[]
	 */
	private static function own( $entry, $address ) {
		$own = array();
		foreach ( (array) ( $entry['recipients'] ?? array() ) as $recipient ) {
			if ( 0 === strcasecmp( self::bare( (string) $recipient ), trim( $address ) ) ) {
				$own[] = (string) $recipient;
			}
		}
		return $own;
	}

	/**
	 * The address of a recipient written bare or as `Name <address>`.
	 *
	 * @param string $recipient A recipient.
	 */
	private static function bare( $recipient ) {
		return trim( preg_match( '/<([^<>]+)>\s*$/', $recipient, $match ) ? $match[1] : $recipient );
	}
}
