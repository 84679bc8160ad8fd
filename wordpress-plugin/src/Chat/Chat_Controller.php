<?php
/**
 * REST route sitebeam/v1/chat: the chat protocol's endpoint (contract/chat-protocol.md), holding the token, the
 * allowed models and the prompt settings. Public: the Origin rule and the rate limit are checked in the callbacks.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Api_Client;
use Sitebeam\Contract;
use Sitebeam\Endpoint\Body_Kind;
use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Endpoint\Matched_Handler;
use Sitebeam\Endpoint\Origin_Rule;
use Sitebeam\Endpoint\Rate_Limiter;
use Sitebeam\Endpoint\Visitor;
use WP_HTTP_Response;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * REST route sitebeam/v1/chat: the chat protocol's endpoint.
 */
final class Chat_Controller {

	const NAMESPACE_V1 = 'sitebeam/v1';
	const ROUTE        = '/chat';

	/**
	 * The route's address.
	 */
	public static function url() {
		return rest_url( self::NAMESPACE_V1 . self::ROUTE );
	}

	/**
	 * Whether WordPress dispatched a request to this route, however its path is spelt (Matched_Handler).
	 *
	 * @param mixed $request A request.
	 */
	public static function is_chat_route( $request ) {
		return Matched_Handler::request_is_for( $request, self::class );
	}

	/**
	 * Registers the route and the filters that shape its answers.
	 */
	public function register() {
		register_rest_route(
			self::NAMESPACE_V1,
			self::ROUTE,
			array(
				array(
					'methods'             => 'GET',
					'callback'            => array( $this, 'list_models' ),
					'permission_callback' => '__return_true',
				),
				array(
					'methods'             => 'POST',
					'callback'            => array( $this, 'handle_message' ),
					'permission_callback' => '__return_true',
				),
				array(
					'methods'             => array( 'PUT', 'PATCH', 'DELETE' ),
					'callback'            => array( $this, 'refuse_method' ),
					'permission_callback' => '__return_true',
				),
			)
		);
		add_filter( 'rest_request_before_callbacks', array( $this, 'filter_own_body_parsing' ), 10, 3 );
		add_filter( 'rest_pre_dispatch', array( $this, 'filter_preflight' ), 20, 3 );
		add_filter( 'rest_post_dispatch', array( $this, 'filter_headers' ), 20, 3 );
		add_filter( 'rest_pre_serve_request', array( $this, 'filter_cors_of_other_origins' ), 11, 3 );
		add_filter( 'rest_pre_serve_request', array( new Chat_Page(), 'filter_serve_form_post' ), 12, 3 );
	}

	/**
	 * The route reads its own body, so that every post is counted and judged in the protocol's order: WordPress's
	 * refusal of a malformed JSON body would come before the rate limit.
	 *
	 * @param mixed           $response Null, or WordPress's error.
	 * @param array           $handler  Route handler.
	 * @param WP_REST_Request $request  The request.
	 */
	public function filter_own_body_parsing( $response, $handler, $request ) {
		if ( self::is_chat_route( $request ) && is_wp_error( $response ) && 'rest_invalid_json' === $response->get_error_code() ) {
			return null;
		}
		return $response;
	}

	/**
	 * Answers the CORS pre-flight: 204 for this site's own pages, 403 otherwise (WordPress would describe the route).
	 *
	 * @param mixed           $result  A response already chosen, or null.
	 * @param WP_REST_Server  $server  The server.
	 * @param WP_REST_Request $request The request.
	 */
	public function filter_preflight( $result, $server, $request ) {
		if ( ! self::is_chat_route( $request ) || 'OPTIONS' !== $request->get_method() ) {
			return $result;
		}
		if ( ! Origin_Rule::allows( $request ) ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_FORBIDDEN_ORIGIN );
		}
		return Origin_Rule::preflight_answer();
	}

	/**
	 * Every answer names the protocol's methods, none is stored by a cache, and a page that may use the chat may
	 * read Retry-After.
	 *
	 * @param WP_HTTP_Response $response The answer.
	 * @param WP_REST_Server   $server   The server.
	 * @param WP_REST_Request  $request  The request.
	 */
	public function filter_headers( $response, $server, $request ) {
		if ( ! self::is_chat_route( $request ) || ! $response instanceof WP_HTTP_Response ) {
			return $response;
		}
		$response->header( 'Allow', Contract::CHAT_ALLOWED_METHODS );
		if ( 'OPTIONS' !== $request->get_method() ) {
			$response->header( 'Cache-Control', 'no-store' );
		}
		if ( null !== $request->get_header( 'origin' ) && Origin_Rule::allows( $request ) ) {
			$response->header( 'Access-Control-Expose-Headers', 'retry-after' );
		}
		return $response;
	}

	/**
	 * WordPress lets every origin read every REST answer, cookies included (rest_send_cors_headers): the chat's
	 * answers to a page it refuses name no origin.
	 *
	 * @param bool             $served  Whether the response was already served.
	 * @param WP_HTTP_Response $result  The response.
	 * @param WP_REST_Request  $request The request.
	 */
	public function filter_cors_of_other_origins( $served, $result, $request ) {
		if ( self::is_chat_route( $request ) && ! Origin_Rule::allows( $request ) ) {
			header_remove( 'Access-Control-Allow-Origin' );
			header_remove( 'Access-Control-Allow-Credentials' );
		}
		return $served;
	}

	/**
	 * GET: the allowed models, the first being the default.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function list_models( WP_REST_Request $request ) {
		if ( ! Origin_Rule::allows( $request ) ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_FORBIDDEN_ORIGIN );
		}
		if ( ! self::is_available() ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_NOT_CONFIGURED );
		}
		return new WP_REST_Response(
			array(
				Contract::RESPONSE_FIELD_STATUS      => Contract::STATUS_OK,
				Contract::CHAT_RESPONSE_FIELD_MODELS => Chat_Config::models(),
			),
			200
		);
	}

	/**
	 * POST: a visitor's message, checked in the protocol's order, then prompted with the owner's settings.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function handle_message( WP_REST_Request $request ) {
		// Every post counts, refused ones included.
		$retry_after = Rate_Limiter::hit( 'chat', Chat_Config::rate_limit(), Contract::CHAT_RATE_LIMIT_WINDOW_S, Visitor::address() );
		if ( $retry_after > 0 ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_RATE_LIMITED, null, $retry_after );
		}
		$kind = Body_Kind::of( $request );
		if ( null === $kind ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_UNSUPPORTED_MEDIA_TYPE );
		}
		if ( ! Origin_Rule::allows( $request ) ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_FORBIDDEN_ORIGIN );
		}
		if ( ! self::is_available() ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_NOT_CONFIGURED );
		}
		$body = (string) $request->get_body();
		if ( strlen( $body ) > Contract::CHAT_BODY_MAX_BYTES ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_PAYLOAD_TOO_LARGE );
		}
		if ( Body_Kind::JSON === $kind && ! is_object( json_decode( $body ) ) ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_INVALID_FIELD );
		}
		$fields = Body_Kind::JSON === $kind ? (array) json_decode( $body, true ) : $request->get_body_params();
		// The honeypot names no field: a robot learns nothing.
		if ( null !== ( $fields[ Contract::CHAT_FIELD_HONEYPOT ] ?? null ) && '' !== $fields[ Contract::CHAT_FIELD_HONEYPOT ] ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_SPAM_SUSPECTED );
		}
		$prompt = Message_Rules::check( $fields, Chat_Config::models(), null !== Consent_Rule::of( Consent_Rule::CHAT ) );
		if ( isset( $prompt['field'] ) ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_INVALID_FIELD, $prompt['field'], 0, $prompt['error'] );
		}
		// Only a message that would reach the model spends the owner's day.
		$daily_limit = Chat_Config::daily_limit();
		$closed_for  = $daily_limit > 0 ? Daily_Budget::take( $daily_limit, time() ) : 0;
		if ( $closed_for > 0 ) {
			return Chat_Response::refusal( Contract::CHAT_ERROR_DAILY_LIMIT_REACHED, null, $closed_for );
		}

		$client = Api_Client::from_settings();
		$answer = $client->prompt( $prompt['model'], $prompt['message'], Chat_Config::prompt_settings() );
		if ( ! is_wp_error( $answer ) ) {
			return Chat_Response::answer( $prompt['model'], $answer );
		}
		if ( Contract::ERROR_MODEL_LOADING === $answer->get_error_code() ) {
			// A prompt need not start the load on every instance: ask for it, whatever it answers.
			$client->load_model( $prompt['model'] );
		}
		return Chat_Response::upstream_failure( $answer );
	}

	/**
	 * Any method but GET, POST and OPTIONS.
	 */
	public function refuse_method() {
		return Chat_Response::refusal( Contract::CHAT_ERROR_METHOD_NOT_ALLOWED );
	}

	/**
	 * Whether a model is allowed and the API can be called.
	 */
	private static function is_available() {
		return Chat_Config::is_on() && Api_Client::from_settings()->is_configured();
	}
}
