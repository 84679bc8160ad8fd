<?php
/**
 * The chat route's answers as contract/chat-protocol.md shapes them: the answer, or a refusal with i18n_code, field
 * and Retry-After; what the API said goes to the log, never to the visitor.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Contract;
use WP_Error;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The chat route's answers as contract/chat-protocol.md shapes them.
 */
final class Chat_Response {

	/**
	 * A model's answer; the score is left out when the instance gave none, and for the models that always answer 0.
	 *
	 * @param string                                   $model  The model.
	 * @param array{response: string[], score?: float} $answer The API's answer.
	 */
	public static function answer( $model, array $answer ) {
		$body = array(
			Contract::RESPONSE_FIELD_STATUS        => Contract::STATUS_OK,
			Contract::CHAT_RESPONSE_FIELD_MODEL    => $model,
			Contract::CHAT_RESPONSE_FIELD_RESPONSE => $answer['response'],
		);
		if ( isset( $answer['score'] ) && ! in_array( $model, Contract::CHAT_UNSCORED_MODELS, true ) ) {
			$body[ Contract::CHAT_RESPONSE_FIELD_SCORE ] = $answer['score'];
		}
		return new WP_REST_Response( $body, 200 );
	}

	/**
	 * A refusal with the status the contract gives its code.
	 *
	 * @param string      $code        Contract::CHAT_ERROR_*.
	 * @param string|null $field       The field at fault.
	 * @param int         $retry_after Seconds, for 429 and model_loading.
	 * @param string|null $error       Text a visitor may read; default: the code's.
	 */
	public static function refusal( $code, $field = null, $retry_after = 0, $error = null ) {
		$body = array(
			Contract::RESPONSE_FIELD_STATUS    => Contract::STATUS_KO,
			Contract::RESPONSE_FIELD_ERROR     => null === $error ? self::text( $code ) : $error,
			Contract::RESPONSE_FIELD_I18N_CODE => $code,
		);
		if ( null !== $field ) {
			$body[ Contract::CHAT_RESPONSE_FIELD_FIELD ] = $field;
		}
		$response = new WP_REST_Response( $body, Contract::CHAT_ERROR_STATUS[ $code ] );
		if ( $retry_after > 0 ) {
			$response->header( 'Retry-After', (string) $retry_after );
		}
		return $response;
	}

	/**
	 * What the visitor is told about a failed prompt; the API's own text and cid go to the log.
	 *
	 * @param WP_Error $error From Api_Client::prompt().
	 */
	public static function upstream_failure( WP_Error $error ) {
		$code   = $error->get_error_code();
		$data   = (array) $error->get_error_data();
		$status = (int) ( $data['status'] ?? 0 );
		$wait   = (int) ( $data['retry_after'] ?? 0 );
		if ( Contract::ERROR_MODEL_LOADING === $code ) {
			return self::refusal( Contract::CHAT_ERROR_MODEL_LOADING, null, max( 1, $wait ) );
		}
		// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log, Squiz.PHP.DiscouragedFunctions.Discouraged -- the site owner's only view of why a visitor's prompt failed.
		error_log( sprintf( 'Sitebeam chat: a visitor’s prompt failed: HTTP %d %s: %s', $status, $code, $error->get_error_message() ) );
		if ( 429 === $status ) {
			return self::refusal( Contract::CHAT_ERROR_RATE_LIMITED, null, $wait > 0 ? $wait : Contract::CHAT_RATE_LIMIT_WINDOW_S );
		}
		// A model the instance does not list is the owner's setting to fix, like a refused token.
		if ( in_array( $status, array( 401, 403, 405 ), true ) || in_array( $code, array( Contract::ERROR_MODEL_NOT_FOUND, Contract::ERROR_CWAI_MODEL_NOTFOUND ), true ) ) {
			return self::refusal( Contract::CHAT_ERROR_NOT_CONFIGURED );
		}
		return self::refusal( Contract::CHAT_ERROR_UPSTREAM_FAILED );
	}

	/**
	 * The visitor's text for a code.
	 *
	 * @param string $code Contract::CHAT_ERROR_*.
	 */
	private static function text( $code ) {
		$texts = array(
			Contract::CHAT_ERROR_INVALID_FIELD          => __( 'The message could not be read.', 'sitebeam' ),
			Contract::CHAT_ERROR_SPAM_SUSPECTED         => __( 'The message looks automated and was not sent.', 'sitebeam' ),
			Contract::CHAT_ERROR_FORBIDDEN_ORIGIN       => __( 'This page may not use this chat.', 'sitebeam' ),
			Contract::CHAT_ERROR_METHOD_NOT_ALLOWED     => __( 'Send the message with POST.', 'sitebeam' ),
			Contract::CHAT_ERROR_PAYLOAD_TOO_LARGE      => __( 'The message is too large.', 'sitebeam' ),
			Contract::CHAT_ERROR_UNSUPPORTED_MEDIA_TYPE => __( 'The message must be sent as JSON or as a regular form.', 'sitebeam' ),
			Contract::CHAT_ERROR_RATE_LIMITED           => __( 'Too many messages were sent. Please wait a minute and try again.', 'sitebeam' ),
			Contract::CHAT_ERROR_DAILY_LIMIT_REACHED    => __( 'The chat is closed for today. Please come back tomorrow.', 'sitebeam' ),
			Contract::CHAT_ERROR_MODEL_LOADING          => __( 'The model is warming up. Please send the message again in a few seconds.', 'sitebeam' ),
			Contract::CHAT_ERROR_NOT_CONFIGURED         => __( 'The chat is not set up yet.', 'sitebeam' ),
		);
		return $texts[ $code ] ?? __( 'The model could not answer right now. Please try again in a moment.', 'sitebeam' );
	}
}
