<?php
/**
 * The owner's outbox actions, done through the outbox's own methods, each answering in words what it did or why it
 * did not: Send now (one mail or the ticked ones), Delete, Try now.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The owner's outbox actions, each answering in words what it did or why it did not. The caller has checked the
 * capability and the nonce.
 */
final class Outbox_Actions {

	/**
	 * Sends one mail now, whatever else waits.
	 *
	 * @param int  $id    The row.
	 * @param bool $again Whether the owner confirmed sending a mail the instance refused for good.
	 * @return array{outcome: string, type: string, message: string} Outbox_Sender::send_one's outcome, and a notice.
	 */
	public static function send( $id, $again ) {
		$row  = Outbox_Listing::mail( (int) $id );
		$done = Outbox_Sender::send_one( (int) $id, (bool) $again );
		/* translators: 1: subject, 2: recipient. */
		$name = null === $row ? '' : sprintf( __( '“%1$s” to %2$s', 'sitebeam' ), $row['subject'], $row['recipient'] );
		switch ( $done['outcome'] ) {
			case 'sent':
				$type = 'success';
				/* translators: %s: a mail, e.g. "“Welcome” to ada@example.com". */
				$message = sprintf( __( 'Sent: %s.', 'sitebeam' ), $name );
				break;
			case 'waiting':
				$after = Outbox_Listing::mail( (int) $id );
				$type  = 'warning';
				/* translators: 1: a mail, 2: why it was not sent, 3: when it is tried next, e.g. "In 4 mins (13:19)". */
				$message = sprintf( __( 'Not sent: %1$s. %2$s It waits in the outbox; next try: %3$s.', 'sitebeam' ), $name, $done['detail'], null === $after ? '—' : Outbox_Words::next_try( $after ) );
				break;
			case 'failed':
				$type = 'error';
				/* translators: 1: a mail, 2: why the instance refused it. */
				$message = sprintf( __( 'Not sent: the instance refused %1$s. %2$s It is kept as Failed.', 'sitebeam' ), $name, $done['detail'] );
				break;
			case 'gone':
				$type    = 'warning';
				$message = __( 'That mail is no longer in the outbox: it was sent or deleted meanwhile.', 'sitebeam' );
				break;
			default:
				// busy (another process is sending it), or needs_confirmation, which the caller turns into a question.
				$type = 'warning';
				/* translators: 1: a mail, 2: why it was not sent now. */
				$message = sprintf( __( 'Not sent now: %1$s. %2$s', 'sitebeam' ), $name, $done['detail'] );
		}
		return array(
			'outcome' => (string) $done['outcome'],
			'type'    => $type,
			'message' => $message,
		);
	}

	/**
	 * Sends the ticked mails one by one while the time lasts; the rest is made due and left to a background run,
	 * except mail the instance refused for good, which is sent again only when the owner confirms it for that mail.
	 *
	 * @param int[] $ids    Rows.
	 * @param int   $budget Seconds.
	 * @return string What happened, in words.
	 */
	public static function send_many( array $ids, $budget ) {
		$ends   = microtime( true ) + $budget;
		$counts = array_fill_keys( array( 'sent', 'waiting', 'failed', 'busy', 'gone', 'needs_confirmation', 'left' ), 0 );
		$why    = '';
		foreach ( $ids as $id ) {
			if ( microtime( true ) >= $ends ) {
				$row = Outbox_Listing::mail( (int) $id );
				if ( null === $row ) {
					++$counts['gone'];
				} elseif ( Outbox_Words::is_refused( $row ) ) {
					++$counts['needs_confirmation'];
				} else {
					Outbox::make_due( (int) $id );
					++$counts['left'];
				}
				continue;
			}
			$done = Outbox_Sender::send_one( (int) $id );
			++$counts[ isset( $counts[ $done['outcome'] ] ) ? $done['outcome'] : 'busy' ];
			if ( in_array( $done['outcome'], array( 'waiting', 'failed' ), true ) ) {
				$why = (string) $done['detail'];
			}
		}
		if ( $counts['left'] > 0 ) {
			Outbox_Sender::start_drain();
		}
		$words = array(
			/* translators: %s: number of mails. */
			'sent'               => _n_noop( '%s mail sent.', '%s mails sent.', 'sitebeam' ),
			/* translators: %s: number of mails. */
			'waiting'            => _n_noop( '%s mail not sent: it waits in the outbox for its next try.', '%s mails not sent: they wait in the outbox for their next try.', 'sitebeam' ),
			/* translators: %s: number of mails. */
			'failed'             => _n_noop( '%s mail refused by the instance: it is kept as Failed.', '%s mails refused by the instance: they are kept as Failed.', 'sitebeam' ),
			/* translators: %s: number of mails. */
			'needs_confirmation' => _n_noop( '%s mail not sent again: the instance refused it for good (open it to send it again anyway).', '%s mails not sent again: the instance refused them for good (open each to send it again anyway).', 'sitebeam' ),
			/* translators: %s: number of mails. */
			'busy'               => _n_noop( '%s mail is being sent by another process.', '%s mails are being sent by another process.', 'sitebeam' ),
			/* translators: %s: number of mails. */
			'gone'               => _n_noop( '%s mail was no longer in the outbox.', '%s mails were no longer in the outbox.', 'sitebeam' ),
			/* translators: %s: number of mails. */
			'left'               => _n_noop( '%s mail not tried yet, for lack of time: it is sent in the background.', '%s mails not tried yet, for lack of time: they are sent in the background.', 'sitebeam' ),
		);
		$said  = array();
		foreach ( $words as $outcome => $noop ) {
			if ( $counts[ $outcome ] > 0 ) {
				$said[] = sprintf( translate_nooped_plural( $noop, $counts[ $outcome ], 'sitebeam' ), number_format_i18n( $counts[ $outcome ] ) );
			}
		}
		if ( '' !== $why ) {
			/* translators: %s: the last error, in words. */
			$said[] = sprintf( __( 'The instance answered: %s', 'sitebeam' ), $why );
		}
		return implode( ' ', $said );
	}

	/**
	 * Deletes mails (the outbox logs each to the send log).
	 *
	 * @param int[] $ids Rows.
	 * @return string What happened, in words.
	 */
	public static function delete( array $ids ) {
		$deleted = array() === $ids ? 0 : (int) Outbox::delete_rows( $ids );
		/* translators: %s: number of mails. */
		$said = sprintf( _n( '%s mail deleted from the outbox: it will not be sent.', '%s mails deleted from the outbox: they will not be sent.', $deleted, 'sitebeam' ), number_format_i18n( $deleted ) );
		$gone = count( $ids ) - $deleted;
		if ( $gone > 0 ) {
			/* translators: %s: number of mails. */
			$said .= ' ' . sprintf( _n( '%s was no longer in the outbox.', '%s were no longer in the outbox.', $gone, 'sitebeam' ), number_format_i18n( $gone ) );
		}
		return $said;
	}

	/**
	 * Deletes every mail of a state or a kind.
	 *
	 * @param string|null $state Outbox::FAILED, or null for any state.
	 * @param string|null $kind  Outbox::KIND_CONTACT, or null for both kinds.
	 * @return string What happened, in words.
	 */
	public static function delete_all( $state, $kind ) {
		$deleted = (int) Outbox::delete_all( $state, $kind );
		/* translators: %s: number of mails. */
		return sprintf( _n( '%s mail deleted from the outbox: it will not be sent.', '%s mails deleted from the outbox: they will not be sent.', $deleted, 'sitebeam' ), number_format_i18n( $deleted ) );
	}

	/**
	 * Makes every waiting mail due and sends for a while; what is left due goes on in the background.
	 *
	 * Failed mail is not made due: mail the instance refused is only sent again when the owner asks for that mail.
	 *
	 * @param int $budget Seconds.
	 * @return string What happened, in words.
	 */
	public static function try_now( $budget ) {
		Outbox::make_waiting_due();
		$done = Outbox_Sender::run( $budget );
		if ( $done['locked'] ) {
			return __( 'The outbox is being sent right now by another process: look again in a moment.', 'sitebeam' );
		}
		$next = Outbox_Listing::next_try();
		if ( null !== $next && $next <= time() ) {
			Outbox_Sender::start_drain();
		}
		$waiting = Outbox_Listing::counts()[ Outbox_Listing::VIEW_WAITING ];
		/* translators: %s: number of mails. */
		$said = sprintf( _n( '%s mail sent.', '%s mails sent.', (int) $done['sent'], 'sitebeam' ), number_format_i18n( (int) $done['sent'] ) );
		if ( $done['failed'] > 0 ) {
			/* translators: %s: number of mails. */
			$said .= ' ' . sprintf( _n( '%s mail failed.', '%s mails failed.', (int) $done['failed'], 'sitebeam' ), number_format_i18n( (int) $done['failed'] ) );
		}
		/* translators: %s: number of mails. */
		$said .= ' ' . sprintf( _n( '%s mail still waiting.', '%s mails still waiting.', $waiting, 'sitebeam' ), number_format_i18n( $waiting ) );
		return $said;
	}
}
