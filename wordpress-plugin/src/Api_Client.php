<?php
/**
 * The Sitebeam API as the plugin uses it: the only place that knows its paths, field names and error codes.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The Sitebeam API as the plugin uses it: the only place that knows its paths, field names and error codes.
 */
final class Api_Client {


	const ERROR_NETWORK        = 'sitebeam_unreachable';
	const ERROR_NOT_CONFIGURED = 'sitebeam_not_configured';
	const ERROR_UNEXPECTED     = 'sitebeam_unexpected_response';
	const ERROR_SERVER         = 'sitebeam_server_error';
	const CREDENTIALS_ERRORS   = array( Contract::ERROR_AUTH_FAILED, Contract::ERROR_ACCOUNT_NOT_CONFIRMED, Contract::ERROR_NOT_EMAILAPI, Contract::ERROR_NOT_AIAPI, Contract::ERROR_NOT_CWAIAPI );
	/** The instance's release or account has no AI API: said as that, never as a broken connection. */
	const AI_ABSENT_ERRORS = array( Contract::ERROR_CWAI_NOT_IMPLEMENED, Contract::ERROR_CWAIAPI_NOT_ENABLED, Contract::ERROR_NOT_AIAPI, Contract::ERROR_NOT_CWAIAPI );

	/** What load_model() says when the instance started loading and tells no progress (upstream's 202). */
	const MODEL_LOAD_STARTED = 'started';

	/**
	 * Instance base URL, without a trailing slash.
	 *
	 * @var string
	 */
	private $base_url;

	/**
	 * API token.
	 *
	 * @var string
	 */
	private $token;

	/**
	 * Whether the instance may be on a private or loopback address.
	 *
	 * @var bool
	 */
	private $allow_private_hosts;

	/**
	 * A client of one instance.
	 *
	 * @param string $base_url            Instance base URL.
	 * @param string $token               API token.
	 * @param bool   $allow_private_hosts Whether the instance may be on a private or loopback address.
	 */
	public function __construct( $base_url, $token, $allow_private_hosts = false ) {
		$this->base_url            = untrailingslashit( (string) $base_url );
		$this->token               = (string) $token;
		$this->allow_private_hosts = (bool) $allow_private_hosts;
	}

	/** A token fixed in wp-config.php is only ever sent to a URL fixed there too. */
	public static function from_settings() {
		$url = Settings::token_needs_fixed_url() ? '' : Settings::get()['api_url'];
		return new self( $url, Settings::token(), Settings::allows_private_hosts() );
	}

	/**
	 * Names this instance and token, for what is remembered of their answers: a keyed hash, from which the token
	 * cannot be read back.
	 */
	public function instance_key() {
		return wp_hash( $this->base_url . "\n" . $this->token );
	}

	/**
	 * Whether a token is set and the base URL may carry it.
	 */
	public function is_configured() {
		return '' !== $this->token && Settings::is_allowed_api_url( $this->base_url );
	}

	/**
	 * Sends one message (one `to`, at most one `bcc`).
	 *
	 * @param array<string, mixed> $message Fields named by the Contract::EMAIL_FIELD_* constants.
	 * @return array<string, mixed>|WP_Error The decoded success body, or the API's error.
	 */
	public function send_email( array $message ) {
		return $this->request( 'POST', Contract::PATH_EMAIL, $message );
	}

	/**
	 * Checks URL, token, email and AI without sending anything.
	 *
	 * The email probe is a message with no field: the service checks the token and the email permission before it
	 * reads the body, so its refusal of the body (422, or the stub's 400 invalid_payload) proves both, and nothing
	 * is sent. The AI probe lists the models.
	 *
	 * @return array{email: true|WP_Error, ai: true|WP_Error|null} The AI is null when the email probe already
	 *         failed for a reason that is the same for both (URL, token, account).
	 */
	public function check_connection() {
		$email = $this->request( 'POST', Contract::PATH_EMAIL, new \stdClass() );
		if ( is_wp_error( $email ) && Contract::ERROR_INVALID_PAYLOAD === $email->get_error_code() ) {
			$email = true;
		} elseif ( ! is_wp_error( $email ) ) {
			$email = new WP_Error( self::ERROR_UNEXPECTED, __( 'The instance accepted a message with no field.', 'sitebeam' ), array( 'status' => 200 ) );
		}
		if ( is_wp_error( $email ) && ! in_array( $email->get_error_code(), array( Contract::ERROR_NOT_EMAILAPI, Contract::ERROR_DISABLED_EMAIL_SERVICE ), true ) ) {
			return array(
				'email' => $email,
				'ai'    => null,
			);
		}
		$models = $this->list_models();
		return array(
			'email' => $email,
			'ai'    => is_wp_error( $models ) ? $models : true,
		);
	}

	/**
	 * The hidden-image tracker URL of a website.
	 *
	 * @param string $website Website name.
	 */
	public function tracker_image_url( $website ) {
		return $this->base_url . Contract::PATH_TRACKER_IMG_PREFIX . rawurlencode( $website );
	}

	/**
	 * The models the instance lists.
	 *
	 * @return string[]|WP_Error
	 */
	public function list_models() {
		$result = $this->request( 'GET', Contract::PATH_MODELS );
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		return array_values( array_filter( (array) ( $result['models'] ?? array() ), 'is_string' ) );
	}

	/**
	 * Asks the instance to load a model; answers at once.
	 *
	 * @param string $model A model the instance lists.
	 * @return string|WP_Error 'ready', 'loading', or self::MODEL_LOAD_STARTED when the instance tells no state
	 *                         (the service answers 202 and loads in the background).
	 */
	public function load_model( $model ) {
		$result = $this->request( 'GET', Contract::PATH_MODEL_PREFIX . rawurlencode( $model ) );
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		$state = $result['state'] ?? null;
		return in_array( $state, array( 'ready', 'loading' ), true ) ? $state : self::MODEL_LOAD_STARTED;
	}

	/**
	 * Prompts a model.
	 *
	 * @param string               $model    A model the instance lists.
	 * @param string               $message  The message.
	 * @param array<string, mixed> $settings Prompt settings (Prompt_Settings), possibly none.
	 * @return array{response: string[], score?: float|int}|WP_Error The score only when the instance gave a number.
	 */
	public function prompt( $model, $message, array $settings ) {
		$result = $this->request(
			'POST',
			Contract::PATH_PROMPT,
			array(
				Contract::PROMPT_FIELD_MODEL    => $model,
				Contract::PROMPT_FIELD_MESSAGE  => $message,
				// An empty PHP array would be sent as [], which is not the object the API takes.
				Contract::PROMPT_FIELD_SETTINGS => (object) $settings,
			)
		);
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		$answer = array( 'response' => array_map( 'strval', array_filter( (array) ( $result['response'] ?? array() ), 'is_scalar' ) ) );
		$score  = $result['score'] ?? null;
		if ( is_int( $score ) || is_float( $score ) ) {
			$answer['score'] = $score;
		}
		return $answer;
	}

	/**
	 * Sends one request with the token, following no redirect, and decodes the answer.
	 *
	 * @param string               $method GET or POST.
	 * @param string               $path   Path below the base URL.
	 * @param array|\stdClass|null $body   JSON body of a POST.
	 * @return array<string, mixed>|WP_Error
	 */
	private function request( $method, $path, $body = null ) {
		if ( ! $this->is_configured() ) {
			return new WP_Error( self::ERROR_NOT_CONFIGURED, __( 'The Sitebeam instance URL or API token is missing.', 'sitebeam' ) );
		}
		$args = array(
			'method'      => $method,
			'timeout'     => 15,
			'redirection' => 0,
			'headers'     => array(
				'Accept'              => 'application/json',
				Contract::AUTH_HEADER => $this->token,
			),
		);
		if ( null !== $body ) {
			$args['headers']['Content-Type'] = 'application/json';
			$args['body']                    = wp_json_encode( $body );
		}
		// wp_safe_remote_request refuses private and loopback addresses and ports other than 80, 443 and 8080.
		$send     = $this->allow_private_hosts ? 'wp_remote_request' : 'wp_safe_remote_request';
		$response = $send( $this->base_url . $path, $args );
		if ( is_wp_error( $response ) ) {
			return new WP_Error( self::ERROR_NETWORK, $response->get_error_message(), array( 'status' => 0 ) );
		}
		$status  = (int) wp_remote_retrieve_response_code( $response );
		$decoded = json_decode( (string) wp_remote_retrieve_body( $response ), true );
		$decoded = is_array( $decoded ) ? $decoded : array();
		if ( $status >= 200 && $status < 300 && 'ok' === ( $decoded['status'] ?? '' ) ) {
			return $decoded;
		}
		return self::error_of( $status, $decoded, (int) wp_remote_retrieve_header( $response, 'retry-after' ) );
	}

	/**
	 * The error an answer other than success stands for.
	 *
	 * @param int                  $status      HTTP status.
	 * @param array<string, mixed> $decoded     The decoded JSON body, or an empty array.
	 * @param int                  $retry_after Seconds from Retry-After, or 0.
	 */
	private static function error_of( $status, array $decoded, $retry_after ) {
		$data    = array(
			'status'      => $status,
			'retry_after' => $retry_after,
		);
		$invalid = self::invalid_field( $status, $decoded );
		if ( null !== $invalid ) {
			return new WP_Error( Contract::ERROR_INVALID_PAYLOAD, $invalid['field'] . ': ' . $invalid['reason'], $data + $invalid );
		}
		if ( is_string( $decoded['i18n_code'] ?? null ) ) {
			return new WP_Error( $decoded['i18n_code'], is_string( $decoded['error'] ?? null ) ? $decoded['error'] : sprintf( 'HTTP %d', $status ), $data );
		}
		// The service's own answers without a code: a route its release lacks (3.16.15's model load: 404
		// {"detail": "Not Found"}), its failures (an unknown model in a prompt: 500 {"detail": "Internal server error"}).
		if ( 404 === $status && is_string( $decoded['detail'] ?? null ) ) {
			$code = Contract::ERROR_NOT_FOUND;
		} else {
			$code = $status >= 500 ? self::ERROR_SERVER : self::ERROR_UNEXPECTED;
		}
		return new WP_Error( $code, is_string( $decoded['detail'] ?? null ) ? $decoded['detail'] : sprintf( 'HTTP %d', $status ), $data );
	}

	/**
	 * The field a refused body is refused for, and the service's reason: the service's 422 lists its faults as
	 * {"detail": [{"loc": ["body", "to"], "msg": "…"}]}; the stub's 400 invalid_payload says "to: …".
	 *
	 * @param int                  $status  HTTP status.
	 * @param array<string, mixed> $decoded The decoded JSON body.
	 * @return array{field: string, reason: string}|null
	 */
	private static function invalid_field( $status, array $decoded ) {
		$fault = $decoded['detail'][0] ?? null;
		if ( Contract::UPSTREAM_VALIDATION_STATUS === $status && is_array( $fault ) && is_array( $fault['loc'] ?? null ) ) {
			$path = array_values( array_filter( $fault['loc'], 'is_scalar' ) );
			if ( 'body' === ( $path[0] ?? null ) && count( $path ) > 1 ) {
				array_shift( $path );
			}
			return array(
				'field'  => implode( '.', array_map( 'strval', $path ) ),
				'reason' => is_string( $fault['msg'] ?? null ) ? $fault['msg'] : '',
			);
		}
		if ( Contract::ERROR_INVALID_PAYLOAD === ( $decoded['i18n_code'] ?? null ) && is_string( $decoded['error'] ?? null )
			&& preg_match( '/^([A-Za-z_][A-Za-z0-9_.]*): (.*)$/sD', $decoded['error'], $matches ) ) {
			return array(
				'field'  => $matches[1],
				'reason' => $matches[2],
			);
		}
		return null;
	}
}
