<?php
/**
 * Turns wp_mail attachments into the API's single attachment block: one file as it is, several as one zip.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Contract;
use Sitebeam\Api_Client;
use WP_Error;
use ZipArchive;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Turns wp_mail attachments into the API's single attachment block: one file as it is, several as one zip.
 */
final class Attachment_Packer {

	const ARCHIVE_NAME = 'attachments.zip';

	/**
	 * The API attachment for wp_mail()’s attachments.
	 *
	 * @param string|string[] $attachments Paths, as wp_mail takes them (string keys name the file, as in WordPress 6.2+).
	 * @return array<string, string>|null|WP_Error The attachment block, null when there is none.
	 */
	public static function pack( $attachments ) {
		$files = self::files( $attachments );
		if ( is_wp_error( $files ) ) {
			return $files;
		}
		if ( ! $files ) {
			return null;
		}
		if ( 1 === count( $files ) ) {
			$name = (string) array_key_first( $files );
			// Measured before it is read: a file of gigabytes never fills the memory of the request that mails it.
			if ( (int) filesize( $files[ $name ] ) > Contract::LIMIT_ATTACHMENT_BYTES ) {
				return self::too_large( $name );
			}
			$type = wp_check_filetype( $name );
			return self::block( $type['type'] ? $type['type'] : 'application/octet-stream', $name, (string) file_get_contents( $files[ $name ] ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file wp_mail() was given, as PHPMailer reads it.
		}
		return self::zip( $files );
	}

	/**
	 * The readable attachment files by name.
	 *
	 * @param string|string[] $attachments Raw wp_mail attachments.
	 * @return array<string, string>|WP_Error File name shown to the recipient => readable path.
	 */
	private static function files( $attachments ) {
		if ( ! is_array( $attachments ) ) {
			$attachments = explode( "\n", str_replace( "\r\n", "\n", (string) $attachments ) );
		}
		$files = array();
		foreach ( $attachments as $key => $path ) {
			$path = trim( (string) $path );
			if ( '' === $path ) {
				continue;
			}
			if ( ! is_file( $path ) || ! is_readable( $path ) ) {
				/* translators: %s: file path. */
				return new WP_Error( 'sitebeam_attachment_unreadable', sprintf( __( 'Attachment not readable: %s', 'sitebeam' ), $path ) );
			}
			$name = is_string( $key ) ? $key : wp_basename( $path );
			$name = (string) preg_replace( '/[\x00-\x1f\x7f\/\\\\]/', '', $name );
			$base = $name;
			for ( $n = 2; isset( $files[ $name ] ); $n++ ) {
				$name = $n . '-' . $base;
			}
			$files[ $name ] = $path;
		}
		return $files;
	}

	/**
	 * Zips several files.
	 *
	 * @param array<string, string> $files Name => path.
	 * @return array<string, string>|WP_Error
	 */
	private static function zip( array $files ) {
		if ( ! class_exists( ZipArchive::class ) ) {
			return new WP_Error( 'sitebeam_zip_missing', __( 'Several attachments need PHP’s zip extension, which is not installed.', 'sitebeam' ) );
		}
		$archive_path = tempnam( get_temp_dir(), 'sitebeam' );
		$archive      = new ZipArchive();
		if ( true !== $archive->open( $archive_path, ZipArchive::CREATE | ZipArchive::OVERWRITE ) ) {
			wp_delete_file( $archive_path );
			return new WP_Error( 'sitebeam_zip_failed', __( 'The attachments could not be zipped.', 'sitebeam' ) );
		}
		foreach ( $files as $name => $path ) {
			$archive->addFile( $path, $name );
		}
		$archive->close();
		clearstatcache( true, $archive_path );
		if ( (int) filesize( $archive_path ) > Contract::LIMIT_ATTACHMENT_BYTES ) {
			wp_delete_file( $archive_path );
			return self::too_large( self::ARCHIVE_NAME );
		}
		$bytes = (string) file_get_contents( $archive_path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file wp_mail() was given, as PHPMailer reads it.
		wp_delete_file( $archive_path );
		return self::block( 'application/zip', self::ARCHIVE_NAME, $bytes );
	}

	/**
	 * The refusal of an attachment over the API's limit.
	 *
	 * @param string $file_name Name shown to the recipient.
	 */
	private static function too_large( $file_name ) {
		return new WP_Error(
			'sitebeam_attachment_too_large',
			/* translators: 1: file name, 2: size limit in MiB. */
			sprintf( __( 'The attachment %1$s is larger than the %2$d MiB the Sitebeam API accepts: the mail was not sent through the API.', 'sitebeam' ), $file_name, Contract::LIMIT_ATTACHMENT_BYTES / 1048576 )
		);
	}

	/**
	 * One API attachment.
	 *
	 * @param string $mime_type Media type.
	 * @param string $file_name Name shown to the recipient.
	 * @param string $bytes     File content.
	 * @return array<string, string>|WP_Error
	 */
	private static function block( $mime_type, $file_name, $bytes ) {
		if ( strlen( $bytes ) > Contract::LIMIT_ATTACHMENT_BYTES ) {
			return self::too_large( $file_name );
		}
		return array(
			Contract::ATTACHMENT_FIELD_MIME_TYPE => $mime_type,
			Contract::ATTACHMENT_FIELD_FILE_NAME => $file_name,
			Contract::ATTACHMENT_FIELD_B64       => base64_encode( $bytes ), // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- the API carries attachments in base64.
		);
	}
}
