<?php
/**
 * The real service (comworkio/cwcloud-api, releases 3.16.15 and 3.15.24) faked at the HTTP layer
 * (pre_http_request) with its exact bodies: each path answers what the test set; any other call fails the test.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Assert;

final class Fake_Service {

	/** The service's refusal of an invalid recipient (FastAPI + pydantic 1). */
	const INVALID_TO = array( 'detail' => array( array( 'loc' => array( 'body', 'to' ), 'msg' => 'value is not a valid email address', 'type' => 'value_error.email' ) ) );

	/** The same refusal of the visitor's address, sent as Reply-To. */
	const INVALID_REPLYTO = array( 'detail' => array( array( 'loc' => array( 'body', 'replyto' ), 'msg' => 'value is not a valid email address', 'type' => 'value_error.email' ) ) );

	/** The service's refusal of a body with no field, as Test connection sends it. */
	const MISSING_FIELDS = array(
		'detail' => array(
			array( 'loc' => array( 'body', 'to' ), 'msg' => 'field required', 'type' => 'value_error.missing' ),
			array( 'loc' => array( 'body', 'subject' ), 'msg' => 'field required', 'type' => 'value_error.missing' ),
		),
	);

	const AUTH_FAILED     = array( 'error' => 'authentification failed', 'i18n_code' => 'auth_failed' );
	const NOT_EMAILAPI    = array( 'error' => 'permission denied', 'i18n_code' => 'not_emailapi' );
	const NOT_CWAIAPI     = array( 'error' => 'permission denied', 'i18n_code' => 'not_cwaiapi' );
	const AI_NOT_IN_CE    = array( 'status' => 'ko', 'error' => 'Cwai not implemented', 'i18n_code' => 'cwai_not_implemened' );
	const EMAIL_SENT      = array( 'status' => 'ok', 'adapter' => 'log', 'response' => '' );
	const MODELS          = array( 'status' => 'ok', 'models' => array( 'gpt2', 'nltksentiment' ) );
	const INTERNAL_ERROR  = array( 'detail' => 'Internal server error' );
	const MODEL_NOT_FOUND = array( 'status' => 'ko', 'i18n_code' => 'cwai_model_notfound', 'cid' => '5d1c', 'http_status' => 404 );
	const LOAD_STARTED    = array( 'status' => 'ok', 'http_status' => 202 );
	const PROMPT_ANSWERED = array( 'status' => 'ok', 'response' => array( 'Hello there' ), 'cid' => '5d1c', 'score' => null );

	/** @var array<string, array{0: int, 1: array}> Path => [status, body]. */
	private $answers = array();

	/** @var array<int, array{method: string, path: string, body: mixed}> */
	public $requests = array();

	/** Starts answering. */
	public function __construct() {
		add_filter( 'pre_http_request', array( $this, 'filter_pre_http_request' ), 10, 3 );
	}

	/** Stops answering. */
	public function stop() {
		remove_filter( 'pre_http_request', array( $this, 'filter_pre_http_request' ) );
	}

	/**
	 * What a path answers from now on.
	 *
	 * @param string $path   API path.
	 * @param int    $status HTTP status.
	 * @param array  $body   JSON body.
	 */
	public function answer( $path, $status, array $body ) {
		$this->answers[ $path ] = array( $status, $body );
	}

	/**
	 * Records a call of the plugin and answers it.
	 *
	 * @param mixed  $preempt Null.
	 * @param array  $args    Request arguments.
	 * @param string $url     The address.
	 */
	public function filter_pre_http_request( $preempt, $args, $url ) {
		$path             = (string) wp_parse_url( $url, PHP_URL_PATH );
		$this->requests[] = array(
			'method' => $args['method'],
			'path'   => $path,
			'body'   => isset( $args['body'] ) ? json_decode( $args['body'], true ) : null,
		);
		Assert::assertArrayHasKey( $path, $this->answers, "unexpected call to $path" );
		list( $status, $body ) = $this->answers[ $path ];
		return array(
			'headers'  => array( 'content-type' => 'application/json' ),
			'body'     => wp_json_encode( $body ),
			'response' => array(
				'code'    => $status,
				'message' => '',
			),
			'cookies'  => array(),
			'filename' => null,
		);
	}
}
