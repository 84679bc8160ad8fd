<?php
/**
 * One mail of the outbox, for the owner: its headers, the first lines of its body, its attachments, every try with
 * what it met, and Send now and Delete.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Contract;
use Sitebeam\Mail\Outbox;
use ZipArchive;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One mail of the outbox, for the owner (the screen's capability): the body may hold a password-reset link, and the
 * page says so.
 */
final class Outbox_Mail_View {

	/** The body is shown up to this many lines, and this many characters. */
	const BODY_LINES = 20;
	const BODY_CHARS = 2000;

	/**
	 * Draws the mail, or says it is no longer there.
	 *
	 * @param int $id The row.
	 */
	public static function render( $id ) {
		$row = Outbox_Listing::mail( $id );
		printf( '<p class="sitebeam-outbox__back"><a href="%s">%s</a></p>', esc_url( Outbox_Page::url() ), esc_html__( '← Back to the outbox', 'sitebeam' ) );
		if ( null === $row ) {
			echo '<h1>' . esc_html__( 'Mail not found', 'sitebeam' ) . '</h1>';
			echo '<p>' . esc_html__( 'This mail is no longer in the outbox: it was sent or deleted.', 'sitebeam' ) . '</p>';
			Notice::show();
			return;
		}
		$message = json_decode( (string) $row['message'], true );
		$message = is_array( $message ) ? $message : array();
		/* translators: %s: recipient. */
		echo '<h1>' . esc_html( sprintf( __( 'Mail to %s', 'sitebeam' ), $row['recipient'] ) ) . '</h1>';
		Notice::show();
		echo '<div class="notice notice-warning inline sitebeam-outbox__private"><p>' . esc_html__( 'Only administrators see this page. The body of a mail may hold a password-reset link or other private data: do not share this page, or a picture of it.', 'sitebeam' ) . '</p></div>';
		self::actions( $row );
		self::headers( $row, $message );
		echo '<h2>' . esc_html__( 'Body', 'sitebeam' ) . '</h2>';
		self::body( (string) ( $message[ Contract::EMAIL_FIELD_CONTENT ] ?? '' ) );
		echo '<h2>' . esc_html__( 'Attachments', 'sitebeam' ) . '</h2>';
		self::attachments( $row, $message );
		echo '<h2>' . esc_html__( 'Tries', 'sitebeam' ) . '</h2>';
		self::tries( $row );
	}

	/**
	 * Send now (Send again… for mail refused for good) and Delete….
	 *
	 * @param array<string, string> $row The row.
	 */
	private static function actions( array $row ) {
		$id = (int) $row['id'];
		echo '<div class="sitebeam-outbox__mail-actions">';
		if ( Outbox_Words::is_refused( $row ) ) {
			printf( '<a class="button" href="%s">%s</a> ', esc_url( Outbox_Page::confirm_url( Outbox_Page::DO_SEND_AGAIN, array( $id ) ) ), esc_html__( 'Send again…', 'sitebeam' ) );
		} elseif ( Outbox::SENDING !== $row['state'] ) {
			Outbox_Page::post_button(
				admin_url( 'admin-post.php' ),
				array(
					'action' => Outbox_Page::ACTION,
					'do'     => Outbox_Page::DO_SEND,
					'mail'   => (string) $id,
				),
				Outbox_Page::ACTION,
				__( 'Send now', 'sitebeam' ),
				'button-primary'
			);
		}
		printf( '<a class="button sitebeam-outbox__delete" href="%s">%s</a>', esc_url( Outbox_Page::confirm_url( Outbox_Page::DO_DELETE, array( $id ) ) ), esc_html__( 'Delete…', 'sitebeam' ) );
		echo '</div>';
	}

	/**
	 * The headers and where the mail stands.
	 *
	 * @param array<string, string> $row     The row.
	 * @param array<string, mixed>  $message The API message.
	 */
	private static function headers( array $row, array $message ) {
		$from = trim( (string) ( $message[ Contract::EMAIL_FIELD_FROM_NAME ] ?? '' ) . ' <' . (string) ( $message[ Contract::EMAIL_FIELD_FROM ] ?? '' ) . '>' );
		$rows = array(
			__( 'To', 'sitebeam' )       => (string) ( $message[ Contract::EMAIL_FIELD_TO ] ?? $row['recipient'] ),
			__( 'Cc', 'sitebeam' )       => (string) ( $message[ Contract::EMAIL_FIELD_CC ] ?? '' ),
			__( 'Bcc', 'sitebeam' )      => (string) ( $message[ Contract::EMAIL_FIELD_BCC ] ?? '' ),
			__( 'Reply-To', 'sitebeam' ) => (string) ( $message[ Contract::EMAIL_FIELD_REPLYTO ] ?? '' ),
			__( 'From', 'sitebeam' )     => '<>' === $from ? '' : $from,
			__( 'Subject', 'sitebeam' )  => (string) ( $message[ Contract::EMAIL_FIELD_SUBJECT ] ?? $row['subject'] ),
			__( 'Kind', 'sitebeam' )     => Outbox::KIND_CONTACT === $row['kind'] ? __( 'Contact form message', 'sitebeam' ) : __( 'Site mail', 'sitebeam' ),
			__( 'State', 'sitebeam' )    => Outbox_Words::state( $row ),
			__( 'Queued', 'sitebeam' )   => Outbox_Words::time( (int) $row['created_at'] ) . ' (' . Outbox_Words::ago( (int) $row['created_at'] ) . ')',
			__( 'Next try', 'sitebeam' ) => Outbox_Words::next_try( $row ),
			__( 'Tries', 'sitebeam' )    => number_format_i18n( (int) $row['tries'] ),
			__( 'Size', 'sitebeam' )     => size_format( (int) $row['bytes'] ),
		);
		echo '<table class="widefat striped sitebeam-outbox__headers"><tbody>';
		foreach ( $rows as $label => $value ) {
			if ( '' !== $value ) {
				printf( '<tr><th scope="row">%s</th><td>%s</td></tr>', esc_html( $label ), esc_html( $value ) );
			}
		}
		echo '</tbody></table>';
	}

	/**
	 * The first lines of the body, as text.
	 *
	 * @param string $content The API message's content (HTML).
	 */
	private static function body( $content ) {
		// A line break of the HTML is one line of text, whether or not the source also broke the line there.
		$text  = (string) preg_replace( array( '#<br\s*/?>\r?\n?#i', '#</(p|div|li|tr|h[1-6])>\r?\n?#i' ), array( "\n", "$0\n" ), $content );
		$text  = html_entity_decode( wp_strip_all_tags( $text ), ENT_QUOTES | ENT_HTML5, 'UTF-8' );
		$lines = preg_split( '/\R/u', trim( (string) preg_replace( '/\n{3,}/', "\n\n", $text ) ) );
		$lines = is_array( $lines ) ? $lines : array();
		$shown = implode( "\n", array_slice( $lines, 0, self::BODY_LINES ) );
		$cut   = count( $lines ) > self::BODY_LINES || mb_strlen( $shown ) > self::BODY_CHARS;
		$shown = mb_substr( $shown, 0, self::BODY_CHARS );
		if ( '' === trim( $shown ) ) {
			echo '<p>' . esc_html__( 'The body is empty.', 'sitebeam' ) . '</p>';
			return;
		}
		echo '<pre class="sitebeam-outbox__body">' . esc_html( $shown ) . '</pre>';
		if ( $cut ) {
			/* translators: %d: number of lines. */
			echo '<p class="description">' . esc_html( sprintf( _n( 'The first %d line only.', 'The first %d lines only.', self::BODY_LINES, 'sitebeam' ), self::BODY_LINES ) ) . '</p>';
		}
	}

	/**
	 * The attachment's name (the files inside, when several were zipped into one).
	 *
	 * @param array<string, string> $row     The row.
	 * @param array<string, mixed>  $message The API message.
	 */
	private static function attachments( array $row, array $message ) {
		$block = $message[ Contract::EMAIL_FIELD_ATTACHMENT ] ?? null;
		$name  = is_array( $block ) ? (string) ( $block['file_name'] ?? '' ) : (string) $row['attachment'];
		if ( '' === $name ) {
			echo '<p>' . esc_html__( 'None.', 'sitebeam' ) . '</p>';
			return;
		}
		$inside = is_array( $block ) ? self::zipped_names( $block ) : array();
		echo '<ul class="sitebeam-outbox__attachments"><li>' . esc_html( $name );
		if ( array() !== $inside ) {
			echo '<ul><li>' . implode( '</li><li>', array_map( 'esc_html', $inside ) ) . '</li></ul>';
		}
		echo '</li></ul>';
	}

	/**
	 * The files in a zip attachment (several attachments are sent as one zip), or none.
	 *
	 * @param array<string, mixed> $block The API attachment block.
	 * @return string[]
	 */
	private static function zipped_names( array $block ) {
		if ( 'application/zip' !== ( $block['mime_type'] ?? '' ) || ! class_exists( ZipArchive::class ) ) {
			return array();
		}
		$path = wp_tempnam( 'sitebeam-outbox-zip' );
		file_put_contents( $path, (string) base64_decode( (string) ( $block['b64'] ?? '' ), true ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_file_put_contents, WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode -- a temporary copy for ZipArchive, which reads files only; the API's attachment is base64.
		$names = array();
		$zip   = new ZipArchive();
		if ( true === $zip->open( $path, ZipArchive::RDONLY ) ) {
			for ( $i = 0; $i < $zip->numFiles; $i++ ) { // phpcs:ignore WordPress.NamingConventions.ValidVariableName.UsedPropertyNotSnakeCase -- ZipArchive's own property.
				$names[] = (string) $zip->getNameIndex( $i );
			}
			$zip->close();
		}
		wp_delete_file( $path );
		return $names;
	}

	/**
	 * Every try kept, with what it met.
	 *
	 * @param array<string, string> $row The row.
	 */
	private static function tries( array $row ) {
		$history = json_decode( (string) ( $row['history'] ?? '' ), true );
		$history = is_array( $history ) ? array_reverse( $history ) : array();
		if ( array() === $history ) {
			echo '<p>' . esc_html( (int) $row['tries'] > 0 ? Outbox_Words::last_error( $row ) : __( 'Not tried yet.', 'sitebeam' ) ) . '</p>';
			return;
		}
		echo '<table class="widefat striped sitebeam-outbox__tries"><thead><tr>';
		printf( '<th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th>', esc_html__( 'When', 'sitebeam' ), esc_html__( 'Answer', 'sitebeam' ), esc_html__( 'What it met', 'sitebeam' ) );
		echo '</tr></thead><tbody>';
		foreach ( $history as $try ) {
			$status = (int) ( $try['status'] ?? 0 );
			printf(
				'<tr><td>%s</td><td>%s</td><td>%s</td></tr>',
				Outbox_Words::time_element( (int) ( $try['at'] ?? 0 ), Outbox_Words::time( (int) ( $try['at'] ?? 0 ) ) ), // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped by time_element().
				/* translators: %d: HTTP status code. */
				esc_html( $status > 0 ? sprintf( __( 'HTTP %d', 'sitebeam' ), $status ) : __( 'No answer', 'sitebeam' ) ),
				esc_html( (string) ( $try['error'] ?? '' ) )
			);
		}
		echo '</tbody></table>';
		if ( count( $history ) >= Outbox::HISTORY_SIZE ) {
			/* translators: %d: number of tries. */
			echo '<p class="description">' . esc_html( sprintf( __( 'The outbox keeps the last %d tries of a mail.', 'sitebeam' ), Outbox::HISTORY_SIZE ) ) . '</p>';
		}
	}
}
