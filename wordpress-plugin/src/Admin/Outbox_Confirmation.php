<?php
/**
 * The pages that ask before the outbox loses mail or sends again what the instance refused: a plain form (no
 * JavaScript needed) that names what will happen, with Cancel.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The pages that ask before the outbox loses mail or sends again what the instance refused.
 */
final class Outbox_Confirmation {

	/** A confirmation names at most this many mails, then says how many more. */
	const LISTED = 20;

	/**
	 * Draws the question for one of Outbox_Page's DO_ verbs.
	 *
	 * @param string $verb DO_DELETE, DO_DELETE_FAILED, DO_DELETE_CONTACT or DO_SEND_AGAIN.
	 * @param int[]  $ids  The mails (DO_DELETE, DO_SEND_AGAIN).
	 */
	public static function render( $verb, array $ids ) {
		switch ( $verb ) {
			case Outbox_Page::DO_DELETE:
				self::delete( $ids );
				break;
			case Outbox_Page::DO_DELETE_FAILED:
				$count = Outbox_Listing::counts()[ Outbox_Listing::VIEW_FAILED ];
				/* translators: %s: number of mails. */
				self::ask( __( 'Delete all failed mail?', 'sitebeam' ), sprintf( _n( '%s failed mail will be deleted from the outbox and never sent.', 'All %s failed mails will be deleted from the outbox and never sent.', $count, 'sitebeam' ), number_format_i18n( $count ) ), $count, $verb, array(), __( 'Delete all failed mail', 'sitebeam' ) );
				break;
			case Outbox_Page::DO_DELETE_CONTACT:
				$count = Outbox_Listing::counts()['contact'];
				/* translators: %s: number of messages. */
				self::ask( __( 'Delete all contact form messages?', 'sitebeam' ), sprintf( _n( '%s message visitors sent through the contact form will be deleted from the outbox: it will never reach you.', 'All %s messages visitors sent through the contact form will be deleted from the outbox: they will never reach you.', $count, 'sitebeam' ), number_format_i18n( $count ) ), $count, $verb, array(), __( 'Delete all contact form messages', 'sitebeam' ) );
				break;
			case Outbox_Page::DO_SEND_AGAIN:
				self::send_again( (int) ( $ids[0] ?? 0 ) );
				break;
			default:
				self::ask( __( 'Sitebeam outbox', 'sitebeam' ), __( 'This action does not exist.', 'sitebeam' ), 0, $verb, array(), '' );
		}
	}

	/**
	 * Asks before deleting mails, naming them.
	 *
	 * @param int[] $ids The mails.
	 */
	private static function delete( array $ids ) {
		$rows  = Outbox_Listing::mails( $ids );
		$count = count( $rows );
		$list  = '';
		foreach ( array_slice( $rows, 0, self::LISTED ) as $row ) {
			/* translators: 1: recipient, 2: subject, 3: the mail's state. */
			$list .= '<li>' . esc_html( sprintf( __( '%1$s: “%2$s” (%3$s)', 'sitebeam' ), $row['recipient'], $row['subject'], Outbox_Words::state( $row ) ) ) . '</li>';
		}
		if ( $count > self::LISTED ) {
			/* translators: %s: number of mails. */
			$list .= '<li>' . esc_html( sprintf( _n( 'and %s more', 'and %s more', $count - self::LISTED, 'sitebeam' ), number_format_i18n( $count - self::LISTED ) ) ) . '</li>';
		}
		self::ask(
			/* translators: %s: number of mails. */
			sprintf( _n( 'Delete %s mail?', 'Delete %s mails?', $count, 'sitebeam' ), number_format_i18n( $count ) ),
			_n( 'It will be deleted from the outbox and never sent:', 'They will be deleted from the outbox and never sent:', $count, 'sitebeam' ),
			$count,
			Outbox_Page::DO_DELETE,
			wp_list_pluck( $rows, 'id' ),
			/* translators: %s: number of mails. */
			sprintf( _n( 'Delete %s mail', 'Delete %s mails', $count, 'sitebeam' ), number_format_i18n( $count ) ),
			'' === $list ? '' : '<ul class="sitebeam-outbox__confirm-list">' . $list . '</ul>'
		);
	}

	/**
	 * Asks before sending again a mail the instance refused for good, naming the refusal.
	 *
	 * @param int $id The mail.
	 */
	private static function send_again( $id ) {
		$row = Outbox_Listing::mail( $id );
		if ( null === $row || ! Outbox_Words::is_refused( $row ) ) {
			self::ask( __( 'Send this mail again?', 'sitebeam' ), null === $row ? '' : __( 'This mail was not refused for good: Send now sends it without asking.', 'sitebeam' ), null === $row ? 0 : 1, Outbox_Page::DO_SEND, array( $id ), __( 'Send now', 'sitebeam' ) );
			return;
		}
		self::ask(
			__( 'Send again a mail the instance refused?', 'sitebeam' ),
			/* translators: 1: subject, 2: recipient, 3: the instance's refusal in words. */
			sprintf( __( 'The instance refused “%1$s” to %2$s for good: %3$s Sent again unchanged, it will most likely be refused again, unless what made the instance refuse it has changed since (its account, its settings).', 'sitebeam' ), $row['subject'], $row['recipient'], $row['last_error'] ),
			1,
			Outbox_Page::DO_SEND_AGAIN,
			array( $id ),
			__( 'Send it again anyway', 'sitebeam' )
		);
	}

	/**
	 * The question, with a form that posts the verb and its mails, and Cancel.
	 *
	 * @param string $title   The heading.
	 * @param string $text    What will happen (plain text).
	 * @param int    $count   How many mails it is for: 0 says there is nothing to do.
	 * @param string $verb    The DO_ verb the form posts.
	 * @param int[]  $ids     The mails it posts.
	 * @param string $button  The button's words.
	 * @param string $details More markup, escaped.
	 */
	private static function ask( $title, $text, $count, $verb, array $ids, $button, $details = '' ) {
		echo '<h1>' . esc_html( $title ) . '</h1>';
		if ( $count < 1 ) {
			echo '<p class="sitebeam-outbox__confirm-none">' . esc_html__( 'There is no such mail in the outbox any more: it was sent or deleted meanwhile.', 'sitebeam' ) . '</p>';
			printf( '<p><a href="%s">%s</a></p>', esc_url( Outbox_Page::url() ), esc_html__( 'Back to the outbox', 'sitebeam' ) );
			return;
		}
		echo '<p class="sitebeam-outbox__confirm-text">' . esc_html( $text ) . '</p>';
		echo $details; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped by the caller.
		printf( '<form method="post" action="%s" class="sitebeam-outbox__confirm">', esc_url( admin_url( 'admin-post.php' ) ) );
		printf( '<input type="hidden" name="action" value="%s"><input type="hidden" name="do" value="%s">', esc_attr( Outbox_Page::ACTION ), esc_attr( $verb ) );
		printf( '<input type="hidden" name="%s" value="%s">', esc_attr( Outbox_List_Table::IDS ), esc_attr( implode( ',', array_map( 'intval', $ids ) ) ) );
		wp_nonce_field( Outbox_Page::ACTION, '_wpnonce', false );
		printf( '<input type="hidden" name="_wp_http_referer" value="%s">', esc_attr( Outbox_Page::url() ) );
		printf( '<p><button type="submit" class="button button-primary">%s</button> <a class="button" href="%s">%s</a></p></form>', esc_html( $button ), esc_url( Outbox_Page::url() ), esc_html__( 'Cancel', 'sitebeam' ) );
	}
}
