<?php
/**
 * Translates wp_mail's arguments into API messages, applying the same filters wp_mail applies.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Contract;
use Sitebeam\Api_Client;
use Sitebeam\Contact\Field_Rules;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Translates wp_mail's arguments into API messages, applying the same filters wp_mail applies.
 */
final class Message_Mapper {

	/**
	 * Maps wp_mail()’s arguments to API messages.
	 *
	 * @param array<string, mixed> $atts wp_mail's to, subject, message, headers, attachments.
	 * @return Outgoing_Mail|WP_Error
	 */
	public static function map( array $atts ) {
		$headers    = Mail_Headers::parse( $atts['headers'] ?? '' );
		$recipients = self::recipients( $atts['to'] ?? array(), $headers );
		if ( is_wp_error( $recipients ) ) {
			return $recipients;
		}
		$fields = self::sender( $headers );
		if ( is_wp_error( $fields ) ) {
			return $fields;
		}
		$reply_to = Address_List::parse( $headers->reply_to );
		if ( is_wp_error( $reply_to ) ) {
			return $reply_to;
		}
		if ( $reply_to ) {
			$fields[ Contract::EMAIL_FIELD_REPLYTO ] = $reply_to[0]['address'];
		}

		/** This filter is documented in wp-includes/pluggable.php */
		$content_type = apply_filters( 'wp_mail_content_type', $headers->content_type ? $headers->content_type : 'text/plain' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.
		/** This filter is documented in wp-includes/pluggable.php */
		$charset = apply_filters( 'wp_mail_charset', $headers->charset ? $headers->charset : get_bloginfo( 'charset' ) ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.

		$subject = self::to_utf8( (string) ( $atts['subject'] ?? '' ), $charset );
		$body    = self::to_utf8( (string) ( $atts['message'] ?? '' ), $charset );

		$fields[ Contract::EMAIL_FIELD_SUBJECT ] = self::subject( $subject );
		$fields[ Contract::EMAIL_FIELD_CONTENT ] = 'text/html' === $content_type ? $body : nl2br( esc_html( $body ), false );

		$attachment = Attachment_Packer::pack( $atts['attachments'] ?? array() );
		if ( is_wp_error( $attachment ) ) {
			return $attachment;
		}
		if ( null !== $attachment ) {
			$fields[ Contract::EMAIL_FIELD_ATTACHMENT ] = $attachment;
		}
		return new Outgoing_Mail( $recipients, $fields );
	}

	/**
	 * Every recipient with the field that carries it.
	 *
	 * @param string|string[] $to      wp_mail's `to`.
	 * @param Mail_Headers    $headers Parsed headers.
	 * @return string[]|WP_Error To, Cc then Bcc, each address once.
	 */
	private static function recipients( $to, Mail_Headers $headers ) {
		$unique = array();
		foreach ( array( $to, $headers->cc, $headers->bcc ) as $list ) {
			$parsed = Address_List::parse( $list );
			if ( is_wp_error( $parsed ) ) {
				return $parsed;
			}
			foreach ( $parsed as $entry ) {
				$unique[ strtolower( $entry['address'] ) ] = $unique[ strtolower( $entry['address'] ) ] ?? $entry['address'];
			}
		}
		if ( ! $unique ) {
			return new WP_Error( 'sitebeam_no_recipient', __( 'The message has no recipient.', 'sitebeam' ) );
		}
		return array_values( $unique );
	}

	/**
	 * From and From name as wp_mail would set them.
	 *
	 * @param Mail_Headers $headers Parsed headers.
	 * @return array<string, string>|WP_Error
	 */
	private static function sender( Mail_Headers $headers ) {
		$from_email = '';
		$from_name  = 'WordPress';
		if ( '' !== $headers->from ) {
			$from = Address_List::parse_one( $headers->from );
			if ( is_wp_error( $from ) ) {
				return $from;
			}
			$from_email = $from['address'];
			$from_name  = '' !== $from['name'] ? $from['name'] : $from_name;
		} else {
			$host = (string) wp_parse_url( network_home_url(), PHP_URL_HOST );
			if ( '' !== $host ) {
				$from_email = 'wordpress@' . preg_replace( '/^www\./', '', $host );
			}
		}
		/** This filter is documented in wp-includes/pluggable.php */
		$from_email = (string) apply_filters( 'wp_mail_from', $from_email ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.
		/** This filter is documented in wp-includes/pluggable.php */
		$from_name = (string) apply_filters( 'wp_mail_from_name', $from_name ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.

		$fields = array( Contract::EMAIL_FIELD_FROM_NAME => trim( (string) preg_replace( '/[\r\n]+/', ' ', $from_name ) ) );
		// A sender WordPress made up from a host name such as "localhost" is no address: the account's own is used instead.
		if ( Field_Rules::is_address( $from_email ) ) {
			$fields[ Contract::EMAIL_FIELD_FROM ] = $from_email;
		}
		return $fields;
	}

	/**
	 * Converts text to UTF-8.
	 *
	 * @param string $text    Text in $charset.
	 * @param string $charset Charset named by the headers or the blog.
	 */
	private static function to_utf8( $text, $charset ) {
		if ( '' === $charset || 'utf-8' === strtolower( $charset ) || ! function_exists( 'mb_convert_encoding' ) ) {
			return $text;
		}
		if ( ! in_array( strtolower( $charset ), array_map( 'strtolower', mb_list_encodings() ), true ) ) {
			return $text;
		}
		return (string) mb_convert_encoding( $text, 'UTF-8', $charset );
	}

	/**
	 * The subject on one line of at most the API's length: line breaks unfolded to one space, other control
	 * characters dropped, and a longer subject shortened with an ellipsis and a warning in the PHP log.
	 *
	 * @param string $subject The subject, in UTF-8.
	 */
	private static function subject( $subject ) {
		$subject = trim( (string) preg_replace( array( '/[\r\n\x{2028}\x{2029}]+\s*/u', Contract::SINGLE_LINE_FORBIDDEN_PATTERN ), array( ' ', '' ), $subject ) );
		if ( mb_strlen( $subject, 'UTF-8' ) <= Contract::LIMIT_SUBJECT_CHARS ) {
			return $subject;
		}
		error_log( sprintf( 'Sitebeam: a mail subject of %d characters was shortened to %d.', mb_strlen( $subject, 'UTF-8' ), Contract::LIMIT_SUBJECT_CHARS ) ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log, Squiz.PHP.DiscouragedFunctions.Discouraged -- the site owner's log is where a changed mail is reported.
		return mb_substr( $subject, 0, Contract::LIMIT_SUBJECT_CHARS - 1, 'UTF-8' ) . '…';
	}
}
