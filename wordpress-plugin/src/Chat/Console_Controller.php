<?php
/**
 * REST routes of the chat console (Sitebeam → Chat), for users with the sitebeam_use_chat capability: list every
 * model the instance has, load one and follow its progress, prompt it with any prompt settings. The token stays
 * here; WordPress's REST nonce guards the cookie.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Api_Client;
use Sitebeam\Api_Messages;
use Sitebeam\Contract;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * REST routes of the chat console.
 */
final class Console_Controller {

	const NAMESPACE_V1 = 'sitebeam/v1';
	const ROUTE        = '/console';

	/**
	 * Registers the routes.
	 */
	public function register() {
		$allowed = array( $this, 'check_capability' );
		register_rest_route(
			self::NAMESPACE_V1,
			self::ROUTE . '/models',
			array(
				'methods'             => 'GET',
				'callback'            => array( $this, 'list_models' ),
				'permission_callback' => $allowed,
			)
		);
		register_rest_route(
			self::NAMESPACE_V1,
			self::ROUTE . '/models/(?P<model>[A-Za-z0-9_.-]+)',
			array(
				'methods'             => 'GET',
				'callback'            => array( $this, 'load_model' ),
				'permission_callback' => $allowed,
			)
		);
		register_rest_route(
			self::NAMESPACE_V1,
			self::ROUTE . '/prompt',
			array(
				'methods'             => 'POST',
				'callback'            => array( $this, 'prompt' ),
				'permission_callback' => $allowed,
				'args'                => array(
					Contract::PROMPT_FIELD_MODEL    => array(
						'required'          => true,
						'validate_callback' => array( Prompt_Settings::class, 'is_model_identifier' ),
					),
					Contract::PROMPT_FIELD_MESSAGE  => array(
						'required'          => true,
						'validate_callback' => array( self::class, 'is_message' ),
					),
					Contract::PROMPT_FIELD_SETTINGS => array(
						'type'    => 'object',
						'default' => array(),
					),
				),
			)
		);
	}

	/**
	 * Only users with the capability; others are refused (403 once logged in).
	 *
	 * @return true|WP_Error
	 */
	public function check_capability() {
		if ( current_user_can( Chat_Capability::CAPABILITY ) ) {
			return true;
		}
		return new WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to use the Sitebeam chat console.', 'sitebeam' ), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * Every model the instance lists.
	 */
	public function list_models() {
		$models = Api_Client::from_settings()->list_models();
		return is_wp_error( $models ) ? self::failure( $models ) : new WP_REST_Response( array( 'models' => $models ), 200 );
	}

	/**
	 * Asks the instance to load a model: 202 while it loads (state "started" when the instance tells no progress),
	 * 200 once ready.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function load_model( WP_REST_Request $request ) {
		$state = Api_Client::from_settings()->load_model( (string) $request['model'] );
		if ( is_wp_error( $state ) ) {
			return self::failure( $state );
		}
		return new WP_REST_Response( array( 'state' => $state ), 'ready' === $state ? 200 : 202 );
	}

	/**
	 * Prompts any model with any recognised settings, typed as on the settings page.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function prompt( WP_REST_Request $request ) {
		$typed = Prompt_Settings::from_form( (array) $request[ Contract::PROMPT_FIELD_SETTINGS ] );
		if ( array() !== $typed['refused'] ) {
			return new WP_Error( 'sitebeam_invalid_setting', implode( ' ', $typed['refused'] ), array( 'status' => 400 ) );
		}
		$model  = (string) $request[ Contract::PROMPT_FIELD_MODEL ];
		$answer = Api_Client::from_settings()->prompt( $model, trim( (string) $request[ Contract::PROMPT_FIELD_MESSAGE ] ), $typed['settings'] );
		if ( is_wp_error( $answer ) ) {
			return self::failure( $answer );
		}
		return new WP_REST_Response( array( 'model' => $model ) + $answer, 200 );
	}

	/**
	 * Whether a value is a message the API takes: text of 1 to Contract::LIMIT_PROMPT_MESSAGE_CHARS characters.
	 *
	 * @param mixed $value A value.
	 */
	public static function is_message( $value ) {
		if ( ! is_string( $value ) || 0 !== preg_match( Contract::MULTI_LINE_FORBIDDEN_PATTERN, $value ) ) {
			return false;
		}
		$length = mb_strlen( trim( $value ), 'UTF-8' );
		return $length >= 1 && $length <= Contract::LIMIT_PROMPT_MESSAGE_CHARS;
	}

	/**
	 * An API error in words for the site's team; a loading model keeps its code and wait.
	 *
	 * @param WP_Error $error From Api_Client.
	 */
	private static function failure( WP_Error $error ) {
		$data = (array) $error->get_error_data();
		if ( Contract::ERROR_MODEL_LOADING === $error->get_error_code() ) {
			return new WP_Error(
				Contract::ERROR_MODEL_LOADING,
				__( 'The model is still loading: load it, then prompt it once it is ready.', 'sitebeam' ),
				array(
					'status'      => 503,
					'retry_after' => max( 1, (int) ( $data['retry_after'] ?? 0 ) ),
				)
			);
		}
		return new WP_Error( 'sitebeam_api_error', Api_Messages::describe( $error ), array( 'status' => 502 ) );
	}
}
