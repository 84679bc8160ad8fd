<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Contract;

/**
 * What one call to the API came back with, and what it means for a site owner.
 */
final class ApiResult {

  public const OK = 'ok';
  public const TOKEN_WRONG = 'token_wrong';
  public const NOT_ENABLED = 'not_enabled';
  public const SERVICE_DISABLED = 'service_disabled';
  public const REJECTED = 'rejected';
  public const INVALID_FIELD = 'invalid_field';
  public const AI_ABSENT = 'ai_absent';
  public const ACCOUNT_NOT_CONFIRMED = 'account_not_confirmed';
  public const RATE_LIMITED = 'rate_limited';
  public const SERVER_ERROR = 'server_error';
  public const UNREACHABLE = 'unreachable';
  public const NOT_CONFIGURED = 'not_configured';
  public const UNSAFE_ADDRESS = 'unsafe_address';
  public const PRIVATE_ADDRESS = 'private_address';

  private function __construct(
    public readonly int $status,
    public readonly array $body,
    public readonly string $networkError = '',
    public readonly ?int $retryAfter = NULL,
    private readonly bool $unsafeAddress = FALSE,
    private readonly string $problem = '',
    private readonly string $token = '',
    private readonly bool $privateAddress = FALSE,
  ) {}

  /**
   * Reads an HTTP answer; a body that is not JSON becomes an empty array.
   *
   * @param int $status
   *   The HTTP status.
   * @param string $body
   *   The body.
   * @param int|null $retry_after
   *   Seconds from Retry-After.
   * @param string|null $answer
   *   The key of Contract::ANSWER_SHAPES a success must have the shape of:
   *   one that has not is no success, and the log says what was wrong.
   * @param string $token
   *   The token the call carried: never written into a log line.
   */
  public static function fromResponse(int $status, string $body, ?int $retry_after = NULL, ?string $answer = NULL, string $token = ''): self {
    $decoded = json_decode($body, TRUE);
    $decoded = is_array($decoded) ? $decoded : [];
    $ok = $status >= 200 && $status < 300 && ($decoded[Contract::RESPONSE_FIELD_STATUS] ?? NULL) === Contract::STATUS_OK;
    $problem = $ok && $answer !== NULL ? Contract::answerProblem($answer, $decoded) : NULL;
    $problem = $problem === NULL ? '' : 'an answer the contract does not allow: ' . $problem;
    return new self($status, $decoded, '', $retry_after, FALSE, $problem, $token);
  }

  /**
   * The answer was larger than Contract::LIMIT_ANSWER_BYTES: not read.
   */
  public static function tooLarge(int $status, string $token = ''): self {
    $problem = sprintf('the answer is larger than %d bytes and was not read', Contract::LIMIT_ANSWER_BYTES);
    return new self($status, [], '', NULL, FALSE, $problem, $token);
  }

  /**
   * The instance could not be reached, or did not answer in time.
   */
  public static function networkFailure(string $reason): self {
    return new self(0, [], $reason === '' ? 'network error' : $reason);
  }

  /**
   * Nothing was sent: the base URL or the token is missing.
   */
  public static function notConfigured(): self {
    return new self(0, [], '');
  }

  /**
   * Nothing was sent: the address is neither https nor this machine.
   */
  public static function unsafeAddress(): self {
    return new self(0, [], '', NULL, TRUE);
  }

  /**
   * Nothing was sent: the address is private, loopback or an unusual port.
   */
  public static function privateAddress(): self {
    return new self(0, [], '', NULL, FALSE, '', '', TRUE);
  }

  /**
   * Whether a Sitebeam instance answered.
   *
   * A success of the contract's shape, or a refusal in the contract's shape
   * (an i18n_code) or the service's own (FastAPI's "detail"). Anything else,
   * whatever its status, may be any server of the network: site owners are
   * told nothing about it that would tell one port or host from another.
   */
  public function isInstanceAnswer(): bool {
    if ($this->status === 0 || $this->problem !== '') {
      return FALSE;
    }
    return $this->isSuccess() || $this->code() !== '' || array_key_exists('detail', $this->body);
  }

  /**
   * The answer to ApiClient::probeEmailApi() of a usable account.
   *
   * The service checks the token and the email API before the body, so a
   * refused body (its 422, the stub's 400 invalid_payload) proves both.
   */
  public function provesEmailApi(): bool {
    return $this->refusedFields() !== []
      || ($this->status === 400 && $this->code() === Contract::ERROR_INVALID_PAYLOAD);
  }

  /**
   * The fields a 422 refused, each with the service's reason, in its order.
   *
   * @return array<string, string>
   *   Reason by field: the body's key ("to"), nested keys joined with dots
   *   ("attachment.b64"), "body" for the body as a whole.
   */
  public function refusedFields(): array {
    $issues = $this->status === Contract::UPSTREAM_VALIDATION_STATUS ? ($this->body['detail'] ?? NULL) : NULL;
    $fields = [];
    foreach (is_array($issues) ? $issues : [] as $issue) {
      $location = is_array($issue) && is_array($issue['loc'] ?? NULL) ? array_filter($issue['loc'], 'is_scalar') : [];
      if (($location[0] ?? NULL) === 'body' && count($location) > 1) {
        array_shift($location);
      }
      $field = $this->safe(implode('.', $location));
      $reason = $this->safe(is_string($issue['msg'] ?? NULL) ? $issue['msg'] : '');
      if ($field !== '') {
        $fields[$field] ??= $reason === '' ? 'invalid' : $reason;
      }
    }
    return $fields;
  }

  /**
   * True when the API answered 2xx with status "ok".
   */
  public function isSuccess(): bool {
    return $this->status >= 200 && $this->status < 300 && $this->problem === ''
      && ($this->body[Contract::RESPONSE_FIELD_STATUS] ?? NULL) === Contract::STATUS_OK;
  }

  /**
   * True when the same request may succeed later: it goes to the outbox.
   *
   * The contract's passing statuses: the instance could not be reached or did
   * not answer in time, was busy (429, 408) or failed (5xx). A refusal for
   * good (400, 401, 403, 413, 422, a missing, unsafe or private address, an
   * answer the contract does not allow) is not: sending it again cannot help.
   * Status 0 is no answer, only when a request was made: a settings problem
   * sends nothing.
   */
  public function isPassingFailure(): bool {
    if ($this->networkError !== '') {
      return Contract::isPassingStatus(0);
    }
    $answered_2xx = $this->status >= 200 && $this->status < 300;
    return !$this->nothingSent() && !$answered_2xx && Contract::isPassingStatus($this->status);
  }

  /**
   * True when no request was made: the module's settings refused to send.
   *
   * The address is missing, neither https nor this machine, or private; or
   * the token is missing. Not the instance's answer: a mail waiting in the
   * outbox stays waiting until the settings are fixed.
   */
  public function nothingSent(): bool {
    return $this->status === 0 && $this->networkError === '' && $this->problem === '';
  }

  /**
   * The model identifiers a successful GET /v1/ai/models listed.
   *
   * @return string[]
   *   Identifiers of letters, digits, dots, dashes and underscores.
   */
  public function models(): array {
    $models = $this->isSuccess() ? ($this->body[Contract::CHAT_RESPONSE_FIELD_MODELS] ?? []) : [];
    return ChatSettings::identifiers(is_array($models) ? $models : []);
  }

  /**
   * The contract's i18n_code, or '' when the answer carried none.
   */
  public function code(): string {
    $code = $this->body[Contract::RESPONSE_FIELD_I18N_CODE] ?? '';
    return is_string($code) ? $code : '';
  }

  /**
   * The API's own error text, for logs and the site's team, never visitors.
   *
   * On one line, its control characters visible and the token as [token].
   */
  public function errorText(): string {
    if ($this->networkError !== '') {
      return $this->safe($this->networkError);
    }
    if ($this->problem !== '') {
      return $this->safe($this->problem);
    }
    $refused = $this->refusedFields();
    if ($refused !== []) {
      return implode('; ', array_map(static fn (string $field, string $reason): string => $field . ': ' . $reason, array_keys($refused), $refused));
    }
    // The service's own errors carry "error"; FastAPI's carry "detail".
    $error = $this->body[Contract::RESPONSE_FIELD_ERROR] ?? $this->body['detail'] ?? '';
    return is_string($error) && $error !== '' ? $this->safe($error) : 'HTTP ' . $this->status;
  }

  /**
   * An instance's text made safe for a log line or an admin page.
   *
   * On one line, its control characters visible (an escape sequence cannot
   * act on a terminal showing the log, a line break cannot forge a second
   * entry) and the token the call carried, echoed back, as [token].
   */
  private function safe(string $text): string {
    return trim(Contract::visibleControls($this->token === '' ? $text : str_replace($this->token, '[token]', $text)));
  }

  /**
   * One of the class constants: the cause in words a site owner understands.
   */
  public function diagnosis(): string {
    if ($this->isSuccess()) {
      return self::OK;
    }
    if ($this->networkError !== '') {
      return self::UNREACHABLE;
    }
    if ($this->unsafeAddress) {
      return self::UNSAFE_ADDRESS;
    }
    if ($this->privateAddress) {
      return self::PRIVATE_ADDRESS;
    }
    return match (TRUE) {
      $this->status === 0 => self::NOT_CONFIGURED,
      $this->status === 401 => self::TOKEN_WRONG,
      $this->status === 403 && $this->code() === Contract::ERROR_ACCOUNT_NOT_CONFIRMED => self::ACCOUNT_NOT_CONFIRMED,
      $this->status === 403 => self::NOT_ENABLED,
      $this->status === 405 && $this->code() === Contract::ERROR_DISABLED_EMAIL_SERVICE => self::SERVICE_DISABLED,
      $this->status === 405 && $this->code() === Contract::ERROR_CWAI_NOT_IMPLEMENED => self::AI_ABSENT,
      $this->refusedFields() !== [] => self::INVALID_FIELD,
      $this->status === 429 => self::RATE_LIMITED,
      $this->status >= 500 => self::SERVER_ERROR,
      $this->status >= 200 && $this->status < 300 => self::SERVER_ERROR,
      default => self::REJECTED,
    };
  }

  /**
   * A line for the sitebeam log channel: status, code and the API's text.
   *
   * On one line, its control characters visible and the token as [token].
   */
  public function logSummary(): string {
    if ($this->unsafeAddress) {
      return 'not sent: the instance address is neither https nor this machine';
    }
    if ($this->privateAddress) {
      return 'not sent: the instance address is private, loopback or on an unusual port (settings.php does not allow them)';
    }
    if ($this->nothingSent()) {
      return 'not sent: the instance address or the token is not set';
    }
    if ($this->networkError !== '') {
      $line = 'network failure: ' . $this->networkError;
    }
    else {
      $code = $this->code();
      $line = sprintf('HTTP %d%s: %s', $this->status, $code === '' ? '' : ' ' . $code, $this->errorText());
    }
    return $this->safe($line);
  }

}
