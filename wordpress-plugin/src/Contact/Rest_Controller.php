<?php
/**
 * REST route sitebeam/v1/contact: the contact protocol's endpoint, holding the token and choosing the recipient.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Contact;

use Sitebeam\Contract;
use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Endpoint\Body_Kind;
use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Endpoint\Matched_Handler;
use Sitebeam\Endpoint\Origin_Rule;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;
use WP_Error;
use WP_HTTP_Response;
use WP_REST_Request;
use WP_REST_Server;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * REST route sitebeam/v1/contact: the contact protocol's endpoint, holding the token and choosing the recipient.
 */
final class Rest_Controller {

	const NAMESPACE_V1 = 'sitebeam/v1';
	const ROUTE        = '/contact';

	/** The API message's fields that carry what the visitor typed, and the form field each comes from. */
	const VISITOR_FIELDS = array(
		Contract::EMAIL_FIELD_REPLYTO => Contract::CONTACT_FIELD_EMAIL,
		Contract::EMAIL_FIELD_SUBJECT => Contract::CONTACT_FIELD_SUBJECT,
		Contract::EMAIL_FIELD_CONTENT => Contract::CONTACT_FIELD_MESSAGE,
	);

	/**
	 * The route’s address.
	 */
	public static function url() {
		return rest_url( self::NAMESPACE_V1 . self::ROUTE );
	}

	/**
	 * The checks of a post, which belong to the route's POST handler.
	 *
	 * @var Request_Guard
	 */
	private $guard;

	/**
	 * Whether WordPress dispatched a request to this route, however its path is spelt (Matched_Handler).
	 *
	 * @param mixed $request A request.
	 */
	public static function is_contact_route( $request ) {
		return Matched_Handler::request_is_for( $request, self::class );
	}

	/**
	 * Registers the route and the filters that guard and shape it.
	 */
	public function register() {
		$guard       = new Request_Guard();
		$this->guard = $guard;
		register_rest_route(
			self::NAMESPACE_V1,
			self::ROUTE,
			array(
				array(
					'methods'             => 'POST',
					'callback'            => array( $this, 'handle' ),
					'permission_callback' => array( $guard, 'check_origin_and_nonce' ),
					'args'                => Field_Rules::rest_args(),
				),
				array(
					'methods'             => 'GET',
					'callback'            => array( $this, 'issue_ticket' ),
					'permission_callback' => array( $guard, 'check_origin' ),
				),
				array(
					'methods'             => array( 'PUT', 'PATCH', 'DELETE' ),
					'callback'            => array( $this, 'refuse_method' ),
					'permission_callback' => '__return_true',
				),
			)
		);
		$responses = new Protocol_Response();
		add_filter( 'rest_request_before_callbacks', array( $guard, 'filter_rest_request_before_callbacks' ), 10, 3 );
		add_filter( 'rest_request_after_callbacks', array( $responses, 'filter_error_shape' ), 10, 3 );
		add_filter( 'rest_pre_serve_request', array( $responses, 'filter_serve_form_post' ), 10, 3 );
		add_filter( 'rest_post_dispatch', array( $this, 'filter_allow_header' ), 20, 3 );
		add_filter(
			'rest_pre_dispatch',
			function ( $result, $server, $request ) use ( $guard, $responses ) {
				return $this->filter_preflight( $result, $request, $guard, $responses );
			},
			20,
			3
		);
	}

	/**
	 * Answers the CORS pre-flight: 204 for this site's own origin, 403 otherwise (WordPress would describe the route).
	 *
	 * @param mixed             $result    A response already chosen, or null.
	 * @param WP_REST_Request   $request   The request.
	 * @param Request_Guard     $guard     The origin check.
	 * @param Protocol_Response $responses The error shape.
	 */
	private function filter_preflight( $result, $request, Request_Guard $guard, Protocol_Response $responses ) {
		if ( ! self::is_contact_route( $request ) || 'OPTIONS' !== $request->get_method() ) {
			return $result;
		}
		$allowed = $guard->check_origin( $request );
		if ( is_wp_error( $allowed ) ) {
			return $responses->filter_error_shape( $allowed, array(), $request );
		}
		return Origin_Rule::preflight_answer();
	}

	/**
	 * Every answer of the route names the protocol's methods in Allow, not WordPress's handlers.
	 *
	 * @param WP_HTTP_Response $response The answer.
	 * @param WP_REST_Server   $server   The server.
	 * @param WP_REST_Request  $request  The request.
	 */
	public function filter_allow_header( $response, $server, $request ) {
		if ( self::is_contact_route( $request ) && $response instanceof WP_HTTP_Response ) {
			$response->header( 'Allow', Contract::CONTACT_ALLOWED_METHODS );
		}
		return $response;
	}

	/**
	 * Answers a fresh fill-time ticket, never cached.
	 */
	public function issue_ticket() {
		$response = new WP_REST_Response(
			array(
				Contract::RESPONSE_FIELD_STATUS         => Contract::STATUS_OK,
				Contract::CONTACT_RESPONSE_FIELD_TICKET => Ticket::issue(),
			),
			200
		);
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * Answers a method other than GET, POST and OPTIONS.
	 */
	public function refuse_method() {
		$error = Protocol_Response::error( Contract::CONTACT_ERROR_METHOD_NOT_ALLOWED, __( 'Send the form with POST.', 'sitebeam' ) );
		$error->add_data( array_merge( (array) $error->get_error_data(), array( 'allow' => Contract::CONTACT_ALLOWED_METHODS ) ) );
		return $error;
	}

	/**
	 * Sends a validated post to the configured recipient.
	 *
	 * @param WP_REST_Request $request The validated post.
	 * @return WP_REST_Response|WP_Error
	 */
	public function handle( WP_REST_Request $request ) {
		// The guard runs as the handler's filter (it must come before argument validation); should anything have
		// removed that filter, it runs here, so no post ever reaches the instance unchecked.
		$refused = $this->guard->check_unless_passed( $request );
		if ( is_wp_error( $refused ) ) {
			return $refused;
		}
		$settings  = Settings::get();
		$client    = Api_Client::from_settings();
		$recipient = (string) $settings['contact_to'];
		if ( ! $client->is_configured() || ! Field_Rules::is_address( $recipient ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_NOT_CONFIGURED, __( 'The contact form is not configured yet.', 'sitebeam' ) );
		}

		$page    = self::referring_page( $request );
		$consent = Consent_Rule::of( Consent_Rule::CONTACT );
		$message = Contact_Message::compose(
			array(
				'name'    => (string) $request->get_param( Contract::CONTACT_FIELD_NAME ),
				'email'   => (string) $request->get_param( Contract::CONTACT_FIELD_EMAIL ),
				'subject' => (string) $request->get_param( Contract::CONTACT_FIELD_SUBJECT ),
				'message' => (string) $request->get_param( Contract::CONTACT_FIELD_MESSAGE ),
				'page'    => $page,
				'consent' => null !== $consent ? $consent['label'] : '',
			),
			$recipient
		);
		// Kept, when the instance fails for a passing reason, within the contact messages' own share of the outbox;
		// beyond it the visitor is asked to try again (never a 202): the site's own mail keeps its room.
		$result = Outbox::send_or_keep(
			$client,
			$message,
			array(
				'kind'    => Outbox::KIND_CONTACT,
				'visitor' => (string) $request->get_param( Contract::CONTACT_FIELD_EMAIL ),
			)
		);
		if ( is_wp_error( $result ) ) {
			Send_Log::record( array( $recipient ), $message[ Contract::EMAIL_FIELD_SUBJECT ], Send_Log::FAILED, Api_Messages::describe( $result ) );
			return self::upstream_error( ( (array) $result->get_error_data() )['api_error'] ?? $result );
		}
		$queued = is_int( $result );
		Send_Log::record( array( $recipient ), $message[ Contract::EMAIL_FIELD_SUBJECT ], $queued ? Send_Log::QUEUED : Send_Log::SENT );

		if ( Body_Kind::is_form_post( $request ) ) {
			$response = new WP_REST_Response( null, 303 );
			// The page says "received" rather than "sent" for a message kept for later (Contact_Form::render()).
			$answer = array( Contract::CONTACT_SENT_QUERY_PARAM => '1' ) + ( $queued ? array( Contract::CONTACT_RESPONSE_FIELD_QUEUED => '1' ) : array() );
			$response->header( 'Location', add_query_arg( $answer, '' !== $page ? $page : home_url( '/' ) ) );
			return $response;
		}
		// Kept in the outbox: received, and sent when the instance is back (202 with queued, contact-protocol.md).
		return new WP_REST_Response(
			array( Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK ) + ( $queued ? array( Contract::CONTACT_RESPONSE_FIELD_QUEUED => true ) : array() )
			+ array( Contract::CONTACT_RESPONSE_FIELD_MESSAGE => $queued ? Contact_Form::received_message() : (string) $settings['contact_success'] ),
			$queued ? 202 : 200
		);
	}

	/**
	 * The visitor never sees the API's own wording alone: a field they typed that the service refused is named, with
	 * the service's reason; credentials problems and a refused recipient read as "not configured", the rest as a retry.
	 *
	 * @param WP_Error $error From Api_Client.
	 */
	private static function upstream_error( WP_Error $error ) {
		$code = $error->get_error_code();
		$data = (array) $error->get_error_data();
		if ( Contract::ERROR_RATE_LIMITED === $code ) {
			// The instance's Retry-After may be a day; the visitor is told at most the contact rate limit's minute.
			$wait = min( Contract::CONTACT_RATE_LIMIT_WINDOW_S, max( 1, (int) ( $data['retry_after'] ?? Contract::CONTACT_RATE_LIMIT_WINDOW_S ) ) );
			return Protocol_Response::error( Contract::CONTACT_ERROR_RATE_LIMITED, __( 'Too many messages: please try again in a minute.', 'sitebeam' ), null, $wait );
		}
		$visitor_field = self::VISITOR_FIELDS[ (string) ( $data['field'] ?? '' ) ] ?? null;
		if ( Contract::ERROR_INVALID_PAYLOAD === $code && null !== $visitor_field ) {
			/* translators: %s: the mail service's reason, e.g. "value is not a valid email address". */
			return Protocol_Response::error( Contract::CONTACT_ERROR_INVALID_FIELD, sprintf( __( 'The mail service refused this field (%s): please correct it.', 'sitebeam' ), $data['reason'] ?? '' ), $visitor_field );
		}
		// A refused recipient or sender is the owner's setting: a retry cannot fix it.
		if ( in_array( $code, Api_Client::CREDENTIALS_ERRORS, true ) || in_array( $code, array( Contract::ERROR_DISABLED_EMAIL_SERVICE, Contract::ERROR_INVALID_PAYLOAD ), true ) ) {
			return Protocol_Response::error( Contract::CONTACT_ERROR_NOT_CONFIGURED, __( 'The contact form is not configured yet.', 'sitebeam' ) );
		}
		return Protocol_Response::error( Contract::CONTACT_ERROR_UPSTREAM_FAILED, __( 'The message could not be sent right now: please try again.', 'sitebeam' ) );
	}

	/**
	 * The page the form was on.
	 *
	 * @param WP_REST_Request $request The post.
	 * @return string The page the form was on, when it is on this site; '' otherwise.
	 */
	private static function referring_page( WP_REST_Request $request ) {
		$referer = (string) $request->get_header( 'referer' );
		if ( '' === $referer ) {
			return '';
		}
		return (string) wp_validate_redirect( esc_url_raw( remove_query_arg( Contract::CONTACT_SENT_QUERY_PARAM, $referer ) ), '' );
	}
}
