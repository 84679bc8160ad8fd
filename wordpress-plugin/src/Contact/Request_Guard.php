<?php
/**
 * Checks on a contact post that come before its fields: rate, media type, size, origin, nonce, honeypot and ticket.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;
use Sitebeam\Endpoint\Body_Kind;
use Sitebeam\Endpoint\Origin_Rule;
use Sitebeam\Endpoint\Rate_Limiter;
use Sitebeam\Endpoint\Visitor;
use WP_Error;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Checks on a contact post that come before its fields: rate, media type, size, origin, nonce, honeypot and ticket.
 */
final class Request_Guard {

	/**
	 * The posts that passed, so that none is counted twice.
	 *
	 * @var \SplObjectStorage<WP_REST_Request, bool>
	 */
	private $passed;

	/**
	 * Starts with no post checked.
	 */
	public function __construct() {
		$this->passed = new \SplObjectStorage();
	}

	/**
	 * Runs before the route's callback and after argument validation, whose error it overrides: every post counts
	 * towards the rate, and a body the route cannot read must not be reported as missing fields. It runs for the
	 * handler this guard is the permission callback of, whatever the spelling of the path WordPress matched to it.
	 *
	 * @param mixed           $response Null, or the argument validation error.
	 * @param array           $handler  Route handler.
	 * @param WP_REST_Request $request  The request.
	 */
	public function filter_rest_request_before_callbacks( $response, $handler, $request ) {
		if ( ! $this->guards( $handler ) || ! $request instanceof WP_REST_Request ) {
			return $response;
		}
		$refused = $this->check( $request );
		return is_wp_error( $refused ) ? $refused : $response;
	}

	/**
	 * Whether a handler is the one this guard checks: the route's POST, whose permission callback it is.
	 *
	 * @param mixed $handler A route handler.
	 */
	public function guards( $handler ) {
		return is_array( $handler ) && array( $this, 'check_origin_and_nonce' ) === ( $handler['permission_callback'] ?? null );
	}

	/**
	 * The checks, for a post the filter did not check (it counts towards the rate once only).
	 *
	 * @param WP_REST_Request $request The post.
	 * @return WP_Error|null
	 */
	public function check_unless_passed( WP_REST_Request $request ) {
		return $this->passed->offsetExists( $request ) ? null : $this->check( $request );
	}

	/**
	 * Every check of a post, in the protocol's order; remembers a post that passed.
	 *
	 * @param WP_REST_Request $request The post.
	 * @return WP_Error|null The refusal, or null.
	 */
	private function check( WP_REST_Request $request ) {
		$refused = $this->refusal( $request );
		if ( null === $refused ) {
			$this->passed->offsetSet( $request );
		}
		return $refused;
	}

	/**
	 * The first check a post fails.
	 *
	 * @param WP_REST_Request $request The post.
	 * @return WP_Error|null The refusal, or null.
	 */
	private function refusal( WP_REST_Request $request ) {
		/**
		 * Filters the contact form rate: at most `max` posts per `window` seconds per visitor.
		 *
		 * @param array{max: int, window: int} $rate Default: 5 a minute.
		 */
		$rate        = apply_filters(
			'sitebeam_contact_rate_limit',
			array(
				'max'    => Contract::CONTACT_RATE_LIMIT_COUNT,
				'window' => Contract::CONTACT_RATE_LIMIT_WINDOW_S,
			)
		);
		$retry_after = Rate_Limiter::hit( 'contact', (int) $rate['max'], (int) $rate['window'], Visitor::address() );
		if ( $retry_after > 0 ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_RATE_LIMITED, __( 'Too many messages: please try again in a minute.', 'sitebeam' ), null, $retry_after );
		}
		if ( ! self::is_well_formed_host( isset( $_SERVER['HTTP_HOST'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_HOST'] ) ) : '' ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_INVALID_REQUEST, __( 'The request could not be read.', 'sitebeam' ) );
		}
		$kind = Body_Kind::of( $request );
		if ( null === $kind ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_UNSUPPORTED_MEDIA_TYPE, __( 'The form must be sent as JSON or as a regular form post.', 'sitebeam' ) );
		}
		$allowed = $this->check_origin( $request );
		if ( is_wp_error( $allowed ) ) {
			return $allowed;
		}
		if ( strlen( (string) $request->get_body() ) > Contract::CONTACT_BODY_MAX_BYTES ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_PAYLOAD_TOO_LARGE, __( 'The message is too long.', 'sitebeam' ) );
		}
		if ( Body_Kind::JSON === $kind && ! is_object( json_decode( (string) $request->get_body() ) ) ) {
			$field = self::field_with_invalid_text( (string) $request->get_body() );
			return null === $field
				? Protocol_Response::error( Contract::CONTACT_ERROR_INVALID_FIELD, __( 'The form data could not be read.', 'sitebeam' ) )
				: Protocol_Response::error( Contract::CONTACT_ERROR_INVALID_FIELD, __( 'This field holds characters that are not text.', 'sitebeam' ), $field );
		}
		// The nonce is a field of the body: it can be read only once the body has been.
		$allowed = $this->check_origin_and_nonce( $request );
		if ( is_wp_error( $allowed ) ) {
			return $allowed;
		}
		// The honeypot names no field: a robot learns nothing.
		if ( '' !== (string) $request->get_param( Contract::CONTACT_FIELD_HONEYPOT ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_SPAM_SUSPECTED, __( 'The message looks automated and was not sent.', 'sitebeam' ) );
		}
		if ( ! Ticket::is_valid( $request->get_param( Contract::CONTACT_FIELD_TICKET ) ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_SPAM_SUSPECTED, __( 'The form was sent too fast, or has expired: please wait a few seconds and send it again.', 'sitebeam' ), Contract::CONTACT_FIELD_TICKET );
		}
		return null;
	}

	/**
	 * The post's permission callback: its origin, then the nonce.
	 *
	 * @param WP_REST_Request $request The post.
	 * @return true|WP_Error
	 */
	public function check_origin_and_nonce( WP_REST_Request $request ) {
		$allowed = $this->check_origin( $request );
		if ( is_wp_error( $allowed ) ) {
			return $allowed;
		}
		if ( ! Form_Nonce::verify( (string) $request->get_param( Form_Nonce::FIELD ) ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN, __( 'The form has expired: reload the page and send it again.', 'sitebeam' ) );
		}
		return true;
	}

	/**
	 * The ticket route's permission callback, and the first half of the post's: the browser says where the
	 * request comes from in Origin, or failing that in Referer; a client sending neither is not refused here.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return true|WP_Error
	 */
	public function check_origin( WP_REST_Request $request ) {
		if ( ! Origin_Rule::allows( $request ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN, __( 'This form can only be sent from its own site.', 'sitebeam' ) );
		}
		return true;
	}

	/**
	 * The first field whose JSON string is not valid UTF-8 (raw bytes, a lone surrogate), which makes PHP refuse
	 * the whole body: the protocol names the field instead.
	 *
	 * @param string $body A JSON body json_decode() refused.
	 */
	private static function field_with_invalid_text( $body ) {
		if ( ! in_array( json_last_error(), array( JSON_ERROR_UTF8, JSON_ERROR_UTF16 ), true ) ) {
			return null;
		}
		foreach ( array_keys( Field_Rules::rest_args() ) as $name ) {
			if ( preg_match( '/"' . preg_quote( $name, '/' ) . '"\s*:\s*"((?:[^"\\\\]|\\\\.)*)"/s', $body, $string ) && null === json_decode( '"' . $string[1] . '"' ) ) {
				return $name;
			}
		}
		return null;
	}

	/**
	 * Whether a Host header is a host name or bracketed IPv6 address with an optional port.
	 *
	 * @param string $host The Host header.
	 */
	private static function is_well_formed_host( $host ) {
		return 1 === preg_match( '/^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/D', $host );
	}
}
