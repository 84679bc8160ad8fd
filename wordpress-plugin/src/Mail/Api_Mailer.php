<?php
/**
 * Sends every wp_mail through the API (pre_wp_mail), with WordPress's own mailer as the fallback the owner may choose.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Settings;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Sends every wp_mail through the API (pre_wp_mail), with WordPress's own mailer as the optional fallback.
 *
 * A mail the instance cannot take for a passing reason (no answer, 429, 5xx) goes to the outbox and wp_mail() answers
 * true; a refusal for good, or a full outbox, fails at once, or falls back to WordPress's mailer (PHP's mail()) when
 * the owner turned the fallback on (it is off by default).
 */
final class Api_Mailer {

	/**
	 * The one mailer.
	 *
	 * @var self|null
	 */
	private static $instance;

	/**
	 * Whether wp_mail() is sending itself (the fallback), so must not be routed again.
	 *
	 * @var bool True while WordPress's own mailer is sending a fallback copy.
	 */
	private $bypass = false;

	/**
	 * The one mailer.
	 */
	public static function instance() {
		if ( null === self::$instance ) {
			self::$instance = new self();
		}
		return self::$instance;
	}

	/**
	 * Sends a wp_mail() through the API.
	 *
	 * @param null|bool            $short_circuit Another plugin's answer, if any.
	 * @param array<string, mixed> $atts          wp_mail's arguments, after the wp_mail filter.
	 * @return null|bool Null lets WordPress send the mail itself.
	 */
	public function filter_pre_wp_mail( $short_circuit, $atts ) {
		if ( null !== $short_circuit || $this->bypass ) {
			return $short_circuit;
		}
		$settings = Settings::get();
		$client   = Api_Client::from_settings();
		if ( ! $settings['route_mail'] || ! $client->is_configured() ) {
			return null;
		}
		$atts    = is_array( $atts ) ? $atts : array();
		$subject = (string) ( $atts['subject'] ?? '' );
		$mail    = Message_Mapper::map( $atts );
		if ( is_wp_error( $mail ) ) {
			return $this->fail( $atts, array(), $mail, (bool) $settings['fallback'] );
		}

		$failed = array();
		$kept   = array();
		$error  = null;
		// The copies kept in the outbox remember the call, so wp_mail_succeeded fires once the last is delivered.
		$meta = array(
			'kind'       => Outbox::KIND_SITE,
			'mail_group' => wp_generate_password( 32, false ),
			'wp_mail'    => $atts,
		);
		foreach ( $mail->recipients as $recipient ) {
			$result = Outbox::send_or_keep( $client, $mail->message_for( $recipient ), $meta );
			if ( is_int( $result ) ) {
				$kept[ $result ] = $recipient;
			} elseif ( is_wp_error( $result ) ) {
				$failed[] = $recipient;
				$error    = $result;
			}
		}
		if ( $kept ) {
			// Accepted for delivery, as an MTA accepts it: the outbox sends it when the instance is back.
			Send_Log::record( array_values( $kept ), $subject, Send_Log::QUEUED );
		}
		$delivered = array_values( array_diff( $mail->recipients, $failed, $kept ) );
		if ( null === $error ) {
			if ( $delivered ) {
				Send_Log::record( $delivered, $subject, Send_Log::SENT );
			}
			if ( ! $kept ) {
				/** This action is documented in wp-includes/pluggable.php */
				do_action( 'wp_mail_succeeded', $atts ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.
			}
			return true;
		}
		// wp_mail_failed fires now for this call: its kept copies will not fire wp_mail_succeeded later.
		Outbox::forget_group( array_keys( $kept ) );
		return $this->fail( $atts, $delivered, $error, (bool) $settings['fallback'], $failed, array_values( $kept ) );
	}

	/**
	 * Reports a failed send, or hands it to WordPress’s mailer.
	 *
	 * @param array<string, mixed> $atts      wp_mail's arguments.
	 * @param string[]             $delivered Recipients the API accepted.
	 * @param WP_Error             $error     Why the rest failed.
	 * @param bool                 $fallback  Whether WordPress's mailer sends what the API did not.
	 * @param string[]             $failed    Recipients the API refused (empty: the mail was never sent).
	 * @param string[]             $kept      Recipients whose copy waits in the outbox.
	 */
	private function fail( array $atts, array $delivered, WP_Error $error, $fallback, array $failed = array(), array $kept = array() ) {
		$subject = (string) ( $atts['subject'] ?? '' );
		$detail  = Api_Messages::describe( $error );
		if ( $delivered ) {
			Send_Log::record( $delivered, $subject, Send_Log::SENT );
		}
		$undelivered = $failed ? $failed : $this->recipients_of( $atts );
		if ( $fallback ) {
			Send_Log::record( $undelivered, $subject, Send_Log::FALLEN_BACK, $detail );
			// Once any copy went out or waits in the outbox, only the refused recipients get one from WordPress: never
			// a second copy to anyone.
			return $delivered || $kept ? $this->send_with_wordpress( $atts, $failed ) : null;
		}
		Send_Log::record( $undelivered, $subject, Send_Log::FAILED, $detail );
		self::fire_mail_failed( $detail, $atts, $error->get_error_code(), $undelivered );
		return false;
	}

	/**
	 * Fires wp_mail_failed as wp_mail() does, with the API's error code and the recipients it failed.
	 *
	 * @param string               $detail     The failure in words.
	 * @param array<string, mixed> $atts       wp_mail's arguments.
	 * @param string               $code       The API's error code.
	 * @param string[]             $recipients The recipients the mail did not reach.
	 * @param array<string, mixed> $more       More data for the hook's listeners.
	 */
	public static function fire_mail_failed( $detail, array $atts, $code, array $recipients, array $more = array() ) {
		/** This action is documented in wp-includes/pluggable.php */
		do_action(
			'wp_mail_failed', // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WordPress's own wp_mail() hook, fired as wp_mail() does.
			new WP_Error(
				'wp_mail_failed',
				$detail,
				$atts + array(
					'sitebeam_error_code' => $code,
					'failed_recipients'   => $recipients,
				) + $more
			)
		);
	}

	/**
	 * Sends each recipient the API refused a copy addressed to them alone, through WordPress's own mailer.
	 *
	 * @param array<string, mixed> $atts       wp_mail's arguments.
	 * @param string[]             $recipients Recipients still waiting.
	 */
	private function send_with_wordpress( array $atts, array $recipients ) {
		$headers      = Mail_Headers::without_recipients( $atts['headers'] ?? '' );
		$all_sent     = true;
		$this->bypass = true;
		try {
			foreach ( $recipients as $recipient ) {
				$all_sent = wp_mail( $recipient, $atts['subject'] ?? '', $atts['message'] ?? '', $headers, $atts['attachments'] ?? array() ) && $all_sent;
			}
		} finally {
			$this->bypass = false;
		}
		return $all_sent;
	}

	/**
	 * Best-effort list of recipients for the log when the mail could not even be mapped.
	 *
	 * @param array<string, mixed> $atts wp_mail's arguments.
	 * @return string[]
	 */
	private function recipients_of( array $atts ) {
		$headers = Mail_Headers::parse( $atts['headers'] ?? '' );
		$raw     = array_merge( (array) ( $atts['to'] ?? array() ), $headers->cc, $headers->bcc );
		return array_values( array_filter( array_map( 'sanitize_text_field', $raw ), 'strlen' ) );
	}
}
