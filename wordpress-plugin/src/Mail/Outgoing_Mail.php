<?php
/**
 * A wp_mail call translated for the API: one shared message, and the recipients who each get their own copy.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Mail;

use Sitebeam\Contract;
use Sitebeam\Api_Client;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A wp_mail call translated for the API: one shared message, and the recipients who each get their own copy.
 */
final class Outgoing_Mail {

	/**
	 * Recipients of this message.
	 *
	 * @var string[] To, then Cc, then Bcc addresses, each once.
	 */
	public $recipients;

	/**
	 * API fields of this message.
	 *
	 * @var array<string, mixed> API fields shared by every copy (no `to`).
	 */
	public $fields;

	/**
	 * One message.
	 *
	 * @param string[]             $recipients Addresses.
	 * @param array<string, mixed> $fields     Shared API fields.
	 */
	public function __construct( array $recipients, array $fields ) {
		$this->recipients = $recipients;
		$this->fields     = $fields;
	}

	/**
	 * The API accepts one `to` per message, so every recipient gets a copy addressed to them alone:
	 * nobody sees another recipient, which is what keeps Bcc addresses undisclosed.
	 *
	 * @param string $recipient One of $this->recipients.
	 * @return array<string, mixed>
	 */
	public function message_for( $recipient ) {
		return array( Contract::EMAIL_FIELD_TO => $recipient ) + $this->fields;
	}
}
