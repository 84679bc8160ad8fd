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
	/** WordPress refuses the instance URL for good (Safe_Url): no retry can cure it. */
	const ERROR_URL_REFUSED  = 'sitebeam_url_refused';
	const CREDENTIALS_ERRORS = array( Contract::ERROR_AUTH_FAILED, Contract::ERROR_ACCOUNT_NOT_CONFIRMED, Contract::ERROR_NOT_EMAILAPI, Contract::ERROR_NOT_AIAPI, Contract::ERROR_NOT_CWAIAPI );

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
		return $this->request( 'email', 'POST', Contract::PATH_EMAIL, $message );
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
		$email = $this->request( 'email', 'POST', Contract::PATH_EMAIL, new \stdClass() );
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
		$result = $this->request( 'models', 'GET', Contract::PATH_MODELS );
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
		$result = $this->request( 'load', 'GET', Contract::PATH_MODEL_PREFIX . rawurlencode( $model ) );
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
			'prompt',
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
	 * Sends one request with the token, following no redirect, and decodes and checks the answer.
	 *
	 * An answer the contract does not allow (Contract::answer_problem()) or over
	 * Contract::LIMIT_ANSWER_BYTES is an ERROR_UNEXPECTED naming what was wrong; the instance's
	 * error texts come with their control characters visible and without the token.
	 *
	 * @param string               $answer A key of Contract::ANSWER_SHAPES.
	 * @param string               $method GET or POST.
	 * @param string               $path   Path below the base URL.
	 * @param array|\stdClass|null $body   JSON body of a POST.
	 * @return array<string, mixed>|WP_Error
	 */
	private function request( $answer, $method, $path, $body = null ) {
		if ( ! $this->is_configured() ) {
			return new WP_Error( self::ERROR_NOT_CONFIGURED, __( 'The Sitebeam instance URL or API token is missing.', 'sitebeam' ) );
		}
		$args = array(
			'method'              => $method,
			'timeout'             => self::timeout(),
			'redirection'         => 0,
			// One byte more than allowed tells an answer over the limit from one at it.
			'limit_response_size' => Contract::LIMIT_ANSWER_BYTES + 1,
			'headers'             => array(
				'Accept'              => 'application/json',
				Contract::AUTH_HEADER => $this->token,
			),
		);
		if ( null !== $body ) {
			$args['headers']['Content-Type'] = 'application/json';
			$args['body']                    = wp_json_encode( $body );
		}
		$response = $this->send( $this->base_url . $path, $args );
		if ( is_wp_error( $response ) && self::ERROR_URL_REFUSED === $response->get_error_code() ) {
			return $response;
		}
		if ( is_wp_error( $response ) ) {
			return new WP_Error( self::ERROR_NETWORK, $this->loggable( $response->get_error_message() ), array( 'status' => 0 ) );
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		$text   = (string) wp_remote_retrieve_body( $response );
		if ( strlen( $text ) > Contract::LIMIT_ANSWER_BYTES ) {
			/* translators: %d: the largest answer read, in bytes. */
			return $this->unexpected( $status, sprintf( __( 'the answer is larger than %d bytes and was not read', 'sitebeam' ), Contract::LIMIT_ANSWER_BYTES ) );
		}
		$decoded = json_decode( $text, true );
		$decoded = is_array( $decoded ) ? $decoded : array();
		if ( $status >= 200 && $status < 300 && 'ok' === ( $decoded['status'] ?? '' ) ) {
			$problem = Contract::answer_problem( $answer, $decoded );
			return null === $problem ? $decoded : $this->unexpected( $status, $problem );
		}
		$error = self::error_of( $status, $decoded, (int) wp_remote_retrieve_header( $response, 'retry-after' ) );
		return new WP_Error( Contract::visible_controls( (string) $error->get_error_code() ), $this->loggable( $error->get_error_message() ), $error->get_error_data() );
	}

	/**
	 * Sends to the instance's address: a localhost name only when private hosts are allowed, and never through DNS.
	 *
	 * @param string               $url  Where.
	 * @param array<string, mixed> $args Arguments of wp_remote_request().
	 * @return array<string, mixed>|WP_Error
	 */
	private function send( $url, array $args ) {
		if ( $this->allow_private_hosts ) {
			return Base_Url::is_localhost_name( (string) wp_parse_url( $url, PHP_URL_HOST ) ) ? Localhost_Request::send( $url, $args ) : wp_remote_request( $url, $args );
		}
		$refused = Base_Url::is_localhost_name( (string) wp_parse_url( $url, PHP_URL_HOST ) ) ? Safe_Url::refusal( $url ) : null;
		// wp_safe_remote_request refuses private and loopback addresses and ports other than 80, 443 and 8080; only
		// then is the URL looked at again, to tell that refusal (for good) from a name that does not resolve.
		$response = null === $refused ? wp_safe_remote_request( $url, $args ) : null;
		if ( null === $refused && is_wp_error( $response ) ) {
			$refused = Safe_Url::refusal( $url );
		}
		if ( null !== $refused ) {
			return new WP_Error( self::ERROR_URL_REFUSED, Safe_Url::explain( $this->base_url, $refused ) );
		}
		return $response;
	}

	/**
	 * Seconds the plugin waits for the instance's answer.
	 */
	public static function timeout() {
		/**
		 * Filters how many seconds the plugin waits for the instance's answer. A mail that meets the time-out
		 * waits in the outbox, and may reach its recipient twice (the instance may have sent it).
		 *
		 * @param float $seconds Seconds, 15 by default.
		 */
		return (float) apply_filters( 'sitebeam_api_timeout', 15 );
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
		// The service's own answers without a code, FastAPI's {"detail": "…"}: a route its release lacks (3.16.15's
		// model load: 404 "Not Found"), its failures (an unknown model in a prompt: 500 "Internal server error").
		// Any other answer reads as not a Sitebeam instance, whatever its status: no port of the server's network
		// tells itself apart by its status.
		if ( ! is_string( $decoded['detail'] ?? null ) ) {
			return new WP_Error( self::ERROR_UNEXPECTED, sprintf( 'HTTP %d', $status ), $data );
		}
		if ( 404 === $status ) {
			$code = Contract::ERROR_NOT_FOUND;
		} else {
			$code = $status >= 500 ? self::ERROR_SERVER : self::ERROR_UNEXPECTED;
		}
		return new WP_Error( $code, $decoded['detail'], $data );
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

	/**
	 * An answer the plugin cannot use, said as such.
	 *
	 * @param int    $status  The HTTP status.
	 * @param string $problem What was wrong, e.g. "score is a string, not a number".
	 */
	private function unexpected( $status, $problem ) {
		return new WP_Error(
			self::ERROR_UNEXPECTED,
			/* translators: 1: HTTP status, 2: what was wrong, e.g. "score is a string, not a number". */
			sprintf( __( 'The instance answered %1$d with an answer Sitebeam cannot use: %2$s.', 'sitebeam' ), $status, $problem ),
			array( 'status' => $status )
		);
	}

	/**
	 * A text from the instance as it may be logged: one line, controls visible, no token (as the relay's
	 * snippet/src/relay/safe-log.ts).
	 *
	 * @param string $text The instance's text.
	 */
	private function loggable( $text ) {
		$text = '' === $this->token ? $text : str_replace( $this->token, '[token]', $text );
		// An instance echoing the header it was sent, whatever token the header carried.
		$text = (string) preg_replace( '/(' . preg_quote( Contract::AUTH_HEADER, '/' ) . '["\']?\s*[:=]\s*["\']?)[^\s"\',;]+/i', '$1[token]', $text );
		return Contract::visible_controls( $text );
	}
}
