<?php
/**
 * Generated from contract/sitebeam-contract.json by contract/generate.mjs — do not edit: change the JSON and run `npm run contract`.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The Sitebeam contract, generated.
 *
 * API paths, field names, limits and codes, and the contact and chat protocols.
 */
final class Contract {

	/**
	 * The header that carries the API token.
	 */
	public const AUTH_HEADER = 'X-Auth-Token';

	/**
	 * API paths; a *_PREFIX is followed by the percent-encoded model or website.
	 */
	public const PATH_EMAIL               = '/v1/email';
	public const PATH_MODELS              = '/v1/ai/models';
	public const PATH_PROMPT              = '/v1/ai/prompt';
	public const PATH_MODEL_PREFIX        = '/v1/ai/model/';
	public const PATH_TRACKER_JSON_PREFIX = '/v1/tracker/json/';
	public const PATH_TRACKER_IMG_PREFIX  = '/v1/tracker/img/';

	/**
	 * The API's limits.
	 */
	public const LIMIT_BODY_BYTES           = 16777216;
	public const LIMIT_ATTACHMENT_BYTES     = 10485760;
	public const LIMIT_SUBJECT_CHARS        = 998;
	public const LIMIT_PROMPT_MESSAGE_CHARS = 32768;
	public const LIMIT_WEBSITE_CHARS        = 255;
	public const LIMIT_ANSWER_BYTES         = 1048576;

	/**
	 * The API's error codes (i18n_code).
	 */
	public const ERROR_INVALID_PAYLOAD        = 'invalid_payload';
	public const ERROR_INVALID_WEBSITE        = 'invalid_website';
	public const ERROR_MODEL_NOT_FOUND        = 'model_not_found';
	public const ERROR_AUTH_FAILED            = 'auth_failed';
	public const ERROR_NOT_EMAILAPI           = 'not_emailapi';
	public const ERROR_NOT_AIAPI              = 'not_aiapi';
	public const ERROR_NOT_CWAIAPI            = 'not_cwaiapi';
	public const ERROR_ACCOUNT_NOT_CONFIRMED  = 'account_not_confirmed';
	public const ERROR_NOT_FOUND              = 'not_found';
	public const ERROR_CWAI_MODEL_NOTFOUND    = 'cwai_model_notfound';
	public const ERROR_DISABLED_EMAIL_SERVICE = 'disabled_email_service';
	public const ERROR_CWAI_NOT_IMPLEMENED    = 'cwai_not_implemened';
	public const ERROR_CWAIAPI_NOT_ENABLED    = 'cwaiapi_not_enabled';
	public const ERROR_PAYLOAD_TOO_LARGE      = 'payload_too_large';
	public const ERROR_UNSUPPORTED_MEDIA_TYPE = 'unsupported_media_type';
	public const ERROR_RATE_LIMITED           = 'rate_limited';
	public const ERROR_MODEL_LOADING          = 'model_loading';

	/**
	 * The HTTP status of each code.
	 */
	public const ERROR_STATUS = array(
		self::ERROR_INVALID_PAYLOAD        => 400,
		self::ERROR_INVALID_WEBSITE        => 400,
		self::ERROR_MODEL_NOT_FOUND        => 400,
		self::ERROR_AUTH_FAILED            => 401,
		self::ERROR_NOT_EMAILAPI           => 403,
		self::ERROR_NOT_AIAPI              => 403,
		self::ERROR_NOT_CWAIAPI            => 403,
		self::ERROR_ACCOUNT_NOT_CONFIRMED  => 403,
		self::ERROR_NOT_FOUND              => 404,
		self::ERROR_CWAI_MODEL_NOTFOUND    => 404,
		self::ERROR_DISABLED_EMAIL_SERVICE => 405,
		self::ERROR_CWAI_NOT_IMPLEMENED    => 405,
		self::ERROR_CWAIAPI_NOT_ENABLED    => 405,
		self::ERROR_PAYLOAD_TOO_LARGE      => 413,
		self::ERROR_UNSUPPORTED_MEDIA_TYPE => 415,
		self::ERROR_RATE_LIMITED           => 429,
		self::ERROR_MODEL_LOADING          => 503,
	);

	/**
	 * Values of the `status` member of every answer.
	 */
	public const STATUS_OK = 'ok';
	public const STATUS_KO = 'ko';

	/**
	 * What the real service answers.
	 *
	 * The real service is comworkio/cwcloud-api (FastAPI), read from its releases ce-3.15.24 (AI
	 * routes implemented) and ce-3.16.15 (every AI route 405 cwai_not_implemened);
	 * contract/contract.md and contract/upstream.md. Any 2xx whose status is ok is success.
	 */
	public const UPSTREAM_AI_RELEASE            = '3.15.24';
	public const UPSTREAM_CE_RELEASE            = '3.16.15';
	public const UPSTREAM_VALIDATION_STATUS     = 422;
	public const UPSTREAM_LOAD_STARTED_STATUS   = 202;
	public const UPSTREAM_INTERNAL_ERROR_STATUS = 500;
	public const UPSTREAM_CID_HEADER            = 'x-cwcloud-cid';

	/**
	 * Domains the service's address validator refuses.
	 *
	 * Themselves and every name under them.
	 */
	public const SPECIAL_USE_DOMAINS = array( 'arpa', 'invalid', 'local', 'localhost', 'onion', 'test' );

	/**
	 * Field names of ErrorBody.
	 */
	public const RESPONSE_FIELD_STATUS    = 'status';
	public const RESPONSE_FIELD_ERROR     = 'error';
	public const RESPONSE_FIELD_I18N_CODE = 'i18n_code';
	public const RESPONSE_FIELD_CID       = 'cid';

	/**
	 * Field names of Attachment.
	 */
	public const ATTACHMENT_FIELD_MIME_TYPE = 'mime_type';
	public const ATTACHMENT_FIELD_FILE_NAME = 'file_name';
	public const ATTACHMENT_FIELD_B64       = 'b64';

	/**
	 * Field names of EmailMessage.
	 */
	public const EMAIL_FIELD_TO         = 'to';
	public const EMAIL_FIELD_SUBJECT    = 'subject';
	public const EMAIL_FIELD_FROM       = 'from';
	public const EMAIL_FIELD_BCC        = 'bcc';
	public const EMAIL_FIELD_CONTENT    = 'content';
	public const EMAIL_FIELD_ATTACHMENT = 'attachment';
	public const EMAIL_FIELD_CC         = 'cc';
	public const EMAIL_FIELD_REPLYTO    = 'replyto';
	public const EMAIL_FIELD_FROM_NAME  = 'from_name';

	/**
	 * Field names of PromptRequest.
	 */
	public const PROMPT_FIELD_MODEL    = 'model';
	public const PROMPT_FIELD_MESSAGE  = 'message';
	public const PROMPT_FIELD_SETTINGS = 'settings';

	/**
	 * Models every instance lists.
	 */
	public const KNOWN_MODELS = array( 'gpt2', 'nlptownsentiment', 'nltksentiment', 'textblobsentiment', 'robertaemotion', 'mock', 'log' );

	/**
	 * Prompt settings by type.
	 */
	public const PROMPT_INTEGER_SETTINGS         = array( 'max_length', 'num_return_sequences', 'no_repeat_ngram_size', 'num_beans', 'top_k' );
	public const PROMPT_POSITIVE_NUMBER_SETTINGS = array( 'top_p', 'temperature' );
	public const PROMPT_BOOLEAN_SETTINGS         = array( 'early_stopping', 'do_sample', 'skip_special_tokens' );

	/**
	 * Setting names accepted for the service's own.
	 *
	 * A client sends them under the service's name.
	 */
	public const PROMPT_SETTING_ALIASES = array(
		'num_beams' => 'num_beans',
	);

	/**
	 * The tracker tag's data-* attributes.
	 */
	public const TRACKER_ATTR_API              = 'data-api';
	public const TRACKER_ATTR_WEBSITE          = 'data-website';
	public const TRACKER_ATTR_REFERRER_POLICY  = 'data-referrer-policy';
	public const TRACKER_ATTR_KEEP_QUERY       = 'data-keep-query';
	public const TRACKER_ATTR_HASH             = 'data-hash';
	public const TRACKER_ATTR_RESPECT_DNT      = 'data-respect-dnt';
	public const TRACKER_ATTR_TRACK_AUTOMATION = 'data-track-automation';
	public const TRACKER_ATTR_TRACK_LOCALHOST  = 'data-track-localhost';
	public const TRACKER_ATTR_EXCLUDE          = 'data-exclude';
	public const TRACKER_ATTR_DEBUG            = 'data-debug';
	public const TRACKER_ATTR_CONSENT          = 'data-consent';

	/**
	 * What every outbox does with the answer to a mail, and when it tries again.
	 *
	 * The WordPress plugin's, the Drupal module's and the relay's outboxes alike. A failure whose
	 * status is in passingStatusRanges is passing: the mail is kept and tried again; any other failure
	 * is a refusal for good, reported at once and never kept. Status 0 is no answer at all: a refused
	 * connection, a name that does not resolve, a time-out. Retries start after about firstRetryS
	 * (jitter: half of it to all of it) and double up to maxRetryS, never before the instance's
	 * Retry-After (at most retryAfterMaxS); a mail is given up lifetimeHours after it was accepted. A
	 * send that times out or is refused opens the circuit breaker: for breakerS seconds new mail goes
	 * straight to the outbox. A run stops early after stopAfterSameFailures passing failures of the
	 * same kind in a row (the instance is down, not the mail).
	 */
	public const OUTBOX_PASSING_STATUS_RANGES = array( array( 0, 0 ), array( 408, 408 ), array( 429, 429 ), array( 500, 599 ) );

	/**
	 * Timing of every outbox (seconds, hours, counts).
	 */
	public const OUTBOX_FIRST_RETRY_S            = 30;
	public const OUTBOX_MAX_RETRY_S              = 3600;
	public const OUTBOX_RETRY_AFTER_MAX_S        = 86400;
	public const OUTBOX_LIFETIME_HOURS           = 72;
	public const OUTBOX_BREAKER_S                = 30;
	public const OUTBOX_STOP_AFTER_SAME_FAILURES = 3;

	/**
	 * The contact protocol's form fields.
	 */
	public const CONTACT_FIELD_NAME     = 'name';
	public const CONTACT_FIELD_EMAIL    = 'email';
	public const CONTACT_FIELD_SUBJECT  = 'subject';
	public const CONTACT_FIELD_MESSAGE  = 'message';
	public const CONTACT_FIELD_HONEYPOT = 'homepage';
	public const CONTACT_FIELD_TICKET   = 'ticket';
	public const CONTACT_FIELD_CONSENT  = 'consent';

	/**
	 * Members of the contact endpoint's JSON answers.
	 *
	 * Besides status, error and i18n_code.
	 */
	public const CONTACT_RESPONSE_FIELD_FIELD   = 'field';
	public const CONTACT_RESPONSE_FIELD_MESSAGE = 'message';
	public const CONTACT_RESPONSE_FIELD_TICKET  = 'ticket';
	public const CONTACT_RESPONSE_FIELD_QUEUED  = 'queued';

	/**
	 * Limits of the contact protocol (characters are code points).
	 */
	public const CONTACT_NAME_MAX_CHARS        = 200;
	public const CONTACT_EMAIL_MAX_CHARS       = 254;
	public const CONTACT_SUBJECT_MAX_CHARS     = 200;
	public const CONTACT_MESSAGE_MAX_CHARS     = 10000;
	public const CONTACT_BODY_MAX_BYTES        = 65536;
	public const CONTACT_API_SUBJECT_MAX_CHARS = 998;

	/**
	 * Defaults of the contact protocol.
	 *
	 * An endpoint may make the rate limit configurable.
	 */
	public const CONTACT_MIN_FILL_MS         = 3000;
	public const CONTACT_TICKET_MAX_AGE_S    = 86400;
	public const CONTACT_TICKET_MAX_SKEW_MS  = 5000;
	public const CONTACT_RATE_LIMIT_COUNT    = 5;
	public const CONTACT_RATE_LIMIT_WINDOW_S = 60;

	/**
	 * A fill-time ticket is `<issued_ms>.<sig>`.
	 *
	 * The signature is base64url(hash_hmac(CONTACT_TICKET_HASH, prefix . issued_ms, secret, true))
	 * without padding.
	 */
	public const CONTACT_TICKET_HMAC_PREFIX = 'sitebeam-contact-ticket:';
	public const CONTACT_TICKET_HASH        = 'sha256';

	/**
	 * Texts of a consent field that give consent, besides JSON true.
	 *
	 * Trimmed and compared without case; contact and chat protocols alike; anything else does not.
	 */
	public const CONSENT_ACCEPTED_TEXTS = array( 'yes', 'on', 'true', '1' );

	/**
	 * Begins the owner's mail line saying the visitor agreed.
	 *
	 * The owner's label follows it.
	 */
	public const CONSENT_MAIL_LINE = 'The visitor agreed: ';

	/**
	 * The Allow header of a 405.
	 */
	public const CONTACT_ALLOWED_METHODS = 'GET, POST, OPTIONS';

	/**
	 * Added (=1) to the page a native post returns to after success.
	 */
	public const CONTACT_SENT_QUERY_PARAM = 'sent';

	/**
	 * The address rule (ASCII dot-atom, lengths included), for preg_match.
	 */
	public const EMAIL_ADDRESS_PATTERN = '/^(?!.*[@.](?:[Aa][Rr][Pp][Aa]|[Ii][Nn][Vv][Aa][Ll][Ii][Dd]|[Ll][Oo][Cc][Aa][Ll](?:[Hh][Oo][Ss][Tt])?|[Oo][Nn][Ii][Oo][Nn]|[Tt][Ee][Ss][Tt])$)(?=[^@]{1,64}@)(?=.{3,254}$)[A-Za-z0-9!#$%&\'*+\\/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&\'*+\\/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9](?:[A-Za-z0-9-]{0,57}[A-Za-z0-9])?)$/uD';

	/**
	 * A single-line value matching this is refused: C0, DEL, C1, U+2028, U+2029.
	 */
	public const SINGLE_LINE_FORBIDDEN_PATTERN = "/[\\x00-\\x1F\\x7F-\\x9F\u{2028}\u{2029}]/uD";

	/**
	 * The same for a multi-line value, which may hold TAB, LF and CR.
	 */
	public const MULTI_LINE_FORBIDDEN_PATTERN = "/[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F\u{2028}\u{2029}]/uD";

	/**
	 * The contact protocol's error codes (i18n_code).
	 */
	public const CONTACT_ERROR_INVALID_FIELD          = 'invalid_field';
	public const CONTACT_ERROR_INVALID_REQUEST        = 'invalid_request';
	public const CONTACT_ERROR_SPAM_SUSPECTED         = 'spam_suspected';
	public const CONTACT_ERROR_FORBIDDEN_ORIGIN       = 'forbidden_origin';
	public const CONTACT_ERROR_METHOD_NOT_ALLOWED     = 'method_not_allowed';
	public const CONTACT_ERROR_PAYLOAD_TOO_LARGE      = 'payload_too_large';
	public const CONTACT_ERROR_UNSUPPORTED_MEDIA_TYPE = 'unsupported_media_type';
	public const CONTACT_ERROR_RATE_LIMITED           = 'rate_limited';
	public const CONTACT_ERROR_UPSTREAM_FAILED        = 'upstream_failed';
	public const CONTACT_ERROR_NOT_CONFIGURED         = 'not_configured';

	/**
	 * The HTTP status of each code.
	 */
	public const CONTACT_ERROR_STATUS = array(
		self::CONTACT_ERROR_INVALID_FIELD          => 400,
		self::CONTACT_ERROR_INVALID_REQUEST        => 400,
		self::CONTACT_ERROR_SPAM_SUSPECTED         => 400,
		self::CONTACT_ERROR_FORBIDDEN_ORIGIN       => 403,
		self::CONTACT_ERROR_METHOD_NOT_ALLOWED     => 405,
		self::CONTACT_ERROR_PAYLOAD_TOO_LARGE      => 413,
		self::CONTACT_ERROR_UNSUPPORTED_MEDIA_TYPE => 415,
		self::CONTACT_ERROR_RATE_LIMITED           => 429,
		self::CONTACT_ERROR_UPSTREAM_FAILED        => 502,
		self::CONTACT_ERROR_NOT_CONFIGURED         => 503,
	);

	/**
	 * The chat protocol's form fields.
	 */
	public const CHAT_FIELD_MESSAGE  = 'message';
	public const CHAT_FIELD_MODEL    = 'model';
	public const CHAT_FIELD_HONEYPOT = 'homepage';
	public const CHAT_FIELD_CONSENT  = 'consent';

	/**
	 * Members of the chat endpoint's JSON answers.
	 *
	 * Besides status, error and i18n_code.
	 */
	public const CHAT_RESPONSE_FIELD_MODELS   = 'models';
	public const CHAT_RESPONSE_FIELD_MODEL    = 'model';
	public const CHAT_RESPONSE_FIELD_RESPONSE = 'response';
	public const CHAT_RESPONSE_FIELD_SCORE    = 'score';
	public const CHAT_RESPONSE_FIELD_FIELD    = 'field';

	/**
	 * Limits of the chat protocol (characters are code points).
	 */
	public const CHAT_MESSAGE_MAX_CHARS = 4000;
	public const CHAT_BODY_MAX_BYTES    = 65536;

	/**
	 * Defaults of the chat protocol (the rate limit is configurable).
	 */
	public const CHAT_RATE_LIMIT_COUNT    = 10;
	public const CHAT_RATE_LIMIT_WINDOW_S = 60;
	public const CHAT_DAILY_LIMIT         = 500;

	/**
	 * Retries while a model warms up, and the longest Retry-After honoured.
	 */
	public const CHAT_WIDGET_LOADING_RETRIES   = 5;
	public const CHAT_WIDGET_RETRY_AFTER_MAX_S = 30;

	/**
	 * Models whose score is always 0.
	 *
	 * Endpoints leave `score` out of their answers.
	 */
	public const CHAT_UNSCORED_MODELS = array( 'gpt2', 'mock', 'log' );

	/**
	 * The Allow header of a 405.
	 */
	public const CHAT_ALLOWED_METHODS = 'GET, POST, OPTIONS';

	/**
	 * The chat protocol's error codes (i18n_code).
	 */
	public const CHAT_ERROR_INVALID_FIELD          = 'invalid_field';
	public const CHAT_ERROR_SPAM_SUSPECTED         = 'spam_suspected';
	public const CHAT_ERROR_FORBIDDEN_ORIGIN       = 'forbidden_origin';
	public const CHAT_ERROR_METHOD_NOT_ALLOWED     = 'method_not_allowed';
	public const CHAT_ERROR_PAYLOAD_TOO_LARGE      = 'payload_too_large';
	public const CHAT_ERROR_UNSUPPORTED_MEDIA_TYPE = 'unsupported_media_type';
	public const CHAT_ERROR_RATE_LIMITED           = 'rate_limited';
	public const CHAT_ERROR_DAILY_LIMIT_REACHED    = 'daily_limit_reached';
	public const CHAT_ERROR_UPSTREAM_FAILED        = 'upstream_failed';
	public const CHAT_ERROR_MODEL_LOADING          = 'model_loading';
	public const CHAT_ERROR_NOT_CONFIGURED         = 'not_configured';

	/**
	 * The HTTP status of each code.
	 */
	public const CHAT_ERROR_STATUS = array(
		self::CHAT_ERROR_INVALID_FIELD          => 400,
		self::CHAT_ERROR_SPAM_SUSPECTED         => 400,
		self::CHAT_ERROR_FORBIDDEN_ORIGIN       => 403,
		self::CHAT_ERROR_METHOD_NOT_ALLOWED     => 405,
		self::CHAT_ERROR_PAYLOAD_TOO_LARGE      => 413,
		self::CHAT_ERROR_UNSUPPORTED_MEDIA_TYPE => 415,
		self::CHAT_ERROR_RATE_LIMITED           => 429,
		self::CHAT_ERROR_DAILY_LIMIT_REACHED    => 429,
		self::CHAT_ERROR_UPSTREAM_FAILED        => 502,
		self::CHAT_ERROR_MODEL_LOADING          => 503,
		self::CHAT_ERROR_NOT_CONFIGURED         => 503,
	);

	/**
	 * The shape of each answer of the API, checked by answer_problem().
	 *
	 * A shape is a kind (string, number, boolean, null, literal, list, object, union) and its parts.
	 */
	public const ANSWER_SHAPES = array(
		'email'   => array(
			'kind'   => 'object',
			'fields' => array(
				'status'   => array(
					'type' => array(
						'kind'  => 'literal',
						'value' => 'ok',
					),
				),
				'adapter'  => array(
					'type'     => array( 'kind' => 'string' ),
					'optional' => true,
				),
				'response' => array(
					'type'     => array( 'kind' => 'unknown' ),
					'optional' => true,
				),
				'id'       => array(
					'type'     => array( 'kind' => 'string' ),
					'optional' => true,
				),
			),
		),
		'models'  => array(
			'kind'   => 'object',
			'fields' => array(
				'models' => array(
					'type' => array(
						'kind' => 'list',
						'of'   => array( 'kind' => 'string' ),
					),
				),
				'status' => array(
					'type' => array(
						'kind'  => 'literal',
						'value' => 'ok',
					),
				),
			),
		),
		'prompt'  => array(
			'kind'   => 'object',
			'fields' => array(
				'response' => array(
					'type' => array(
						'kind' => 'list',
						'of'   => array( 'kind' => 'string' ),
					),
				),
				'score'    => array(
					'type'     => array(
						'kind' => 'union',
						'of'   => array( array( 'kind' => 'number' ), array( 'kind' => 'null' ) ),
					),
					'optional' => true,
				),
				'status'   => array(
					'type' => array(
						'kind'  => 'literal',
						'value' => 'ok',
					),
				),
				'cid'      => array(
					'type'     => array( 'kind' => 'string' ),
					'optional' => true,
				),
			),
		),
		'load'    => array(
			'kind'   => 'object',
			'fields' => array(
				'status'      => array(
					'type' => array(
						'kind'  => 'literal',
						'value' => 'ok',
					),
				),
				'http_status' => array(
					'type'     => array( 'kind' => 'number' ),
					'optional' => true,
				),
			),
		),
		'tracker' => array(
			'kind'   => 'object',
			'fields' => array(
				'status'     => array(
					'type' => array(
						'kind'  => 'literal',
						'value' => 'ok',
					),
				),
				'type'       => array(
					'type' => array(
						'kind'  => 'literal',
						'value' => 'tracker',
					),
				),
				'time'       => array( 'type' => array( 'kind' => 'string' ) ),
				'host'       => array( 'type' => array( 'kind' => 'string' ) ),
				'user_agent' => array( 'type' => array( 'kind' => 'string' ) ),
				'os'         => array( 'type' => array( 'kind' => 'string' ) ),
				'device'     => array( 'type' => array( 'kind' => 'string' ) ),
				'browser'    => array( 'type' => array( 'kind' => 'string' ) ),
				'details'    => array(
					'type' => array(
						'kind'   => 'object',
						'fields' => array(
							'brand' => array( 'type' => array( 'kind' => 'string' ) ),
							'type'  => array( 'type' => array( 'kind' => 'string' ) ),
						),
					),
				),
				'referrer'   => array( 'type' => array( 'kind' => 'string' ) ),
				'website'    => array( 'type' => array( 'kind' => 'string' ) ),
				'infos'      => array(
					'type' => array(
						'kind'   => 'object',
						'fields' => array(
							'status'      => array(
								'type' => array(
									'kind' => 'union',
									'of'   => array(
										array(
											'kind'  => 'literal',
											'value' => 'ok',
										),
										array(
											'kind'  => 'literal',
											'value' => 'ko',
										),
									),
								),
							),
							'status_code' => array(
								'type'     => array( 'kind' => 'number' ),
								'optional' => true,
							),
							'city'        => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'region'      => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'country'     => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'region_code' => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'country_iso' => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'lookup'      => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'timezone'    => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'utc_offset'  => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'currency'    => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'asn'         => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'org'         => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'ip'          => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'network'     => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'version'     => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'hostname'    => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'loc'         => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
							'reason'      => array(
								'type'     => array( 'kind' => 'string' ),
								'optional' => true,
							),
						),
					),
				),
				'level'      => array(
					'type'     => array( 'kind' => 'string' ),
					'optional' => true,
				),
				'cid'        => array(
					'type'     => array( 'kind' => 'string' ),
					'optional' => true,
				),
			),
		),
	);

	/**
	 * What is wrong with an answer of the API, or null when it fits.
	 *
	 * Fields the contract does not name pass. A problem reads, for example,
	 * "score is a string, not a number".
	 *
	 * @param string $answer A key of ANSWER_SHAPES (email, models, prompt...).
	 * @param mixed  $value  The answer as json_decode( $body, true ) gives it.
	 *
	 * @return string|null The problem, or null.
	 */
	public static function answer_problem( $answer, $value ) {
		return self::shape_problem( self::ANSWER_SHAPES[ $answer ], $value, '' );
	}

	/**
	 * What is wrong with a value at a path of an answer, or null.
	 *
	 * @param array  $shape A shape of ANSWER_SHAPES.
	 * @param mixed  $value The value.
	 * @param string $path  Where the value is, '' for the answer itself.
	 *
	 * @return string|null The problem, or null.
	 */
	private static function shape_problem( array $shape, $value, $path ) {
		$is_list = is_array( $value ) && array_values( $value ) === $value;
		if ( 'list' === $shape['kind'] && $is_list ) {
			foreach ( $value as $index => $item ) {
				$problem = self::shape_problem( $shape['of'], $item, $path . '[' . $index . ']' );
				if ( null !== $problem ) {
					return $problem;
				}
			}
			return null;
		}
		if ( 'object' === $shape['kind'] && is_array( $value ) && ( ! $is_list || array() === $value ) ) {
			foreach ( $shape['fields'] as $field => $member ) {
				$inner = '' === $path ? $field : $path . '.' . $field;
				if ( ! array_key_exists( $field, $value ) ) {
					if ( empty( $member['optional'] ) ) {
						return $inner . ' is missing';
					}
					continue;
				}
				$problem = self::shape_problem( $member['type'], $value[ $field ], $inner );
				if ( null !== $problem ) {
					return $problem;
				}
			}
			return null;
		}
		if ( self::shape_fits( $shape, $value ) ) {
			return null;
		}
		$where = '' === $path ? 'the answer' : $path;
		return $where . ' is ' . self::value_kind( $value ) . ', not ' . self::shape_kind( $shape );
	}

	/**
	 * Whether a value has a shape that is not a list or an object.
	 *
	 * @param array $shape A shape of ANSWER_SHAPES.
	 * @param mixed $value The value.
	 *
	 * @return bool Whether it fits.
	 */
	private static function shape_fits( array $shape, $value ) {
		switch ( $shape['kind'] ) {
			case 'union':
				foreach ( $shape['of'] as $member ) {
					if ( null === self::shape_problem( $member, $value, '' ) ) {
						return true;
					}
				}
				return false;

			case 'literal':
				return $shape['value'] === $value;

			case 'string':
				return is_string( $value );

			case 'number':
				return is_int( $value ) || is_float( $value );

			case 'boolean':
				return is_bool( $value );

			case 'null':
				return null === $value;

			case 'unknown':
				return true;
		}
		return false;
	}

	/**
	 * A value's kind, in words.
	 *
	 * @param mixed $value The value.
	 *
	 * @return string Its kind.
	 */
	private static function value_kind( $value ) {
		if ( null === $value ) {
			return 'null';
		}
		if ( is_array( $value ) ) {
			return array_values( $value ) === $value ? 'a list' : 'an object';
		}
		if ( is_string( $value ) ) {
			return 'a string';
		}
		return is_bool( $value ) ? 'a boolean' : 'a number';
	}

	/**
	 * A shape, in words.
	 *
	 * @param array $shape A shape of ANSWER_SHAPES.
	 *
	 * @return string Its kind.
	 */
	private static function shape_kind( array $shape ) {
		switch ( $shape['kind'] ) {
			case 'literal':
				return '"' . $shape['value'] . '"';

			case 'union':
				return implode( ' or ', array_map( fn( $member ) => self::shape_kind( $member ), $shape['of'] ) );

			case 'list':
				return 'a list';

			case 'object':
				return 'an object';

			case 'null':
				return 'null';
		}
		return 'a ' . $shape['kind'];
	}

	/**
	 * A text from the instance made safe for a log line or a terminal.
	 *
	 * Control characters become escapes: \e[2J for an escape sequence, \x07,
	 * \n for a line break (one line per event); TAB stays.
	 *
	 * @param string $text The text.
	 *
	 * @return string The text, on one line.
	 */
	public static function visible_controls( $text ) {
		$safe = preg_replace_callback(
			'/[\x00-\x08\x0A-\x1F\x7F\x{80}-\x{9F}\x{200E}\x{200F}\x{2028}-\x{202E}\x{2066}-\x{2069}]/u',
			fn( $found ) => self::visible_control( $found[0] ),
			$text
		);
		// Not UTF-8: every byte outside printable ASCII is shown.
		return $safe ?? preg_replace_callback(
			'/[^\x09\x20-\x7E]/',
			fn( $found ) => sprintf( '\x%02x', ord( $found[0] ) ),
			$text
		);
	}

	/**
	 * One control character as an escape.
	 *
	 * @param string $character The character, in UTF-8.
	 *
	 * @return string Its escape.
	 */
	private static function visible_control( $character ) {
		// ESC, CR and LF by their letters: \e, \r, \n.
		$named = strpos( "\e\r\n", $character );
		if ( 1 === strlen( $character ) && false !== $named ) {
			return '\\' . substr( 'ern', $named, 1 );
		}
		$bytes = array_map( 'ord', str_split( $character ) );
		if ( 1 === count( $bytes ) ) {
			return sprintf( '\x%02x', $bytes[0] );
		}
		if ( 2 === count( $bytes ) ) {
			return sprintf( '\x%02x', ( ( $bytes[0] & 0x1F ) << 6 ) | ( $bytes[1] & 0x3F ) );
		}
		return sprintf( '\u{%x}', ( ( $bytes[0] & 0x0F ) << 12 ) | ( ( $bytes[1] & 0x3F ) << 6 ) | ( $bytes[2] & 0x3F ) );
	}

	/**
	 * Whether a failed send may succeed later: the outbox keeps the mail.
	 *
	 * @param int $status The answer's HTTP status, 0 when none came.
	 *
	 * @return bool true for a passing failure, false for a refusal for good.
	 */
	public static function is_passing_status( $status ) {
		foreach ( self::OUTBOX_PASSING_STATUS_RANGES as $range ) {
			if ( $status >= $range[0] && $status <= $range[1] ) {
				return true;
			}
		}
		return false;
	}
}
