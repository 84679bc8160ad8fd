<?php
/**
 * Reads the wp_mail headers the API can carry: From, Cc, Bcc, Reply-To and Content-Type.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Reads the wp_mail headers the API can carry: From, Cc, Bcc, Reply-To and Content-Type.
 */
final class Mail_Headers {

	/**
	 * The From header, as given.
	 *
	 * @var string
	 */
	public $from = '';

	/**
	 * Cc addresses, as given.
	 *
	 * @var string[]
	 */
	public $cc = array();

	/**
	 * Bcc addresses, as given.
	 *
	 * @var string[]
	 */
	public $bcc = array();

	/**
	 * Reply-To addresses, as given.
	 *
	 * @var string[]
	 */
	public $reply_to = array();

	/**
	 * Media type of the body.
	 *
	 * @var string
	 */
	public $content_type = '';

	/**
	 * Character set of the body.
	 *
	 * @var string
	 */
	public $charset = '';

	/**
	 * Reads wp_mail()’s headers.
	 *
	 * @param string|string[] $headers As given to wp_mail: one string with a header per line, or an array of lines.
	 */
	public static function parse( $headers ) {
		$parsed = new self();
		foreach ( self::lines( $headers ) as $line ) {
			if ( false === strpos( $line, ':' ) ) {
				continue;
			}
			list( $name, $value ) = explode( ':', $line, 2 );
			$value                = trim( $value );
			switch ( strtolower( trim( $name ) ) ) {
				case 'from':
					$parsed->from = $value;
					break;
				case 'cc':
					$parsed->cc[] = $value;
					break;
				case 'bcc':
					$parsed->bcc[] = $value;
					break;
				case 'reply-to':
					$parsed->reply_to[] = $value;
					break;
				case 'content-type':
					$parsed->read_content_type( $value );
					break;
			}
		}
		return $parsed;
	}

	/**
	 * The headers minus Cc and Bcc, for a copy sent to one recipient alone.
	 *
	 * @param string|string[] $headers Raw headers.
	 * @return string[]
	 */
	public static function without_recipients( $headers ) {
		return array_values(
			array_filter(
				self::lines( $headers ),
				static function ( $line ) {
					return ! preg_match( '/^\s*b?cc\s*:/i', $line );
				}
			)
		);
	}

	/**
	 * The header lines, unfolded.
	 *
	 * @param string|string[] $headers Raw headers.
	 * @return string[] One logical header per entry, folded continuation lines joined.
	 */
	private static function lines( $headers ) {
		if ( ! is_array( $headers ) ) {
			$headers = explode( "\n", str_replace( "\r\n", "\n", (string) $headers ) );
		}
		$lines = array();
		foreach ( $headers as $line ) {
			$line = rtrim( (string) $line, "\r\n" );
			if ( '' === trim( $line ) ) {
				continue;
			}
			if ( $lines && preg_match( '/^[ \t]/', $line ) ) {
				$lines[ count( $lines ) - 1 ] .= ' ' . trim( $line );
				continue;
			}
			$lines[] = $line;
		}
		return $lines;
	}

	/**
	 * Reads a Content-Type header.
	 *
	 * @param string $value `type/subtype; charset=...`.
	 */
	private function read_content_type( $value ) {
		$parts              = explode( ';', $value );
		$this->content_type = strtolower( trim( $parts[0] ) );
		foreach ( array_slice( $parts, 1 ) as $parameter ) {
			if ( preg_match( '/^\s*charset\s*=\s*"?([^";]+)"?/i', $parameter, $matches ) ) {
				$this->charset = trim( $matches[1] );
			}
		}
	}
}
