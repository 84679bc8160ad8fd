<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Settings\SettingsValidator;
use GuzzleHttp\ClientInterface;
use GuzzleHttp\Exception\GuzzleException;
use GuzzleHttp\Psr7\Utils;
use GuzzleHttp\RequestOptions;
use Psr\Http\Message\ResponseInterface;

/**
 * The one client of the Sitebeam HTTP API (names and paths: Contract).
 */
class ApiClient {

  /**
   * Constructs the client.
   *
   * @param \GuzzleHttp\ClientInterface $httpClient
   *   Drupal's http_client.
   * @param \Drupal\sitebeam\Api\CredentialsFactory $credentialsFactory
   *   Gives the site's credentials, read afresh for every call.
   * @param \Drupal\sitebeam\Api\InstanceHost $instanceHost
   *   Refuses private hosts and unusual ports, unless settings.php allows.
   * @param \Drupal\sitebeam\Api\Credentials|null $credentials
   *   Fixed credentials instead of the site's (see withCredentials()).
   * @param float $timeout
   *   Seconds a call may take in all (the container parameter
   *   sitebeam.api_timeout); a mail that times out waits in the outbox.
   */
  public function __construct(
    protected ClientInterface $httpClient,
    protected CredentialsFactory $credentialsFactory,
    protected InstanceHost $instanceHost,
    protected ?Credentials $credentials = NULL,
    protected float $timeout = 20,
  ) {}

  /**
   * Sends one message shaped by MessageMapper or ContactMessageComposer.
   */
  public function sendEmail(array $payload): ApiResult {
    return $this->request('email', 'POST', Contract::PATH_EMAIL, $payload);
  }

  /**
   * Posts an empty message: past authentication, only the email API's answers.
   *
   * The service resolves the token (401) and the email API (403) before it
   * reads the body, so an account that may send gets the empty body refused
   * (422, see ApiResult::provesEmailApi()) and nothing is ever sent.
   */
  public function probeEmailApi(): ApiResult {
    return $this->request('email', 'POST', Contract::PATH_EMAIL, new \stdClass());
  }

  /**
   * The models the instance lists (GET /v1/ai/models).
   */
  public function listModels(): ApiResult {
    return $this->request('models', 'GET', Contract::PATH_MODELS);
  }

  /**
   * Prompts a model with a message and settings (POST /v1/ai/prompt).
   *
   * @param string $model
   *   A model the instance lists.
   * @param string $message
   *   The text.
   * @param array $settings
   *   Prompt settings by name, already typed (see PromptSettings).
   */
  public function prompt(string $model, string $message, array $settings): ApiResult {
    return $this->request('prompt', 'POST', Contract::PATH_PROMPT, [
      Contract::PROMPT_FIELD_MODEL => $model,
      Contract::PROMPT_FIELD_MESSAGE => $message,
      Contract::PROMPT_FIELD_SETTINGS => (object) $settings,
    ]);
  }

  /**
   * Asks the instance to load a model: 202 loading, 200 ready.
   */
  public function loadModel(string $model): ApiResult {
    return $this->request('load', 'GET', Contract::PATH_MODEL_PREFIX . rawurlencode($model));
  }

  /**
   * A client for other credentials, such as values typed into the form.
   */
  public function withCredentials(Credentials $credentials): static {
    return new static($this->httpClient, $this->credentialsFactory, $this->instanceHost, $credentials, $this->timeout);
  }

  /**
   * One call carrying the token: never redirected, never over plain http.
   *
   * Except to this machine, and a localhost name is this machine without
   * asking DNS (LocalhostNames). Never to a private host or an unusual port
   * either, unless settings.php allows them (InstanceHost).
   *
   * The answer is read up to Contract::LIMIT_ANSWER_BYTES and checked as the
   * answer $answer of Contract::ANSWER_SHAPES (see ApiResult::fromResponse()).
   */
  protected function request(string $answer, string $method, string $path, array|\stdClass|null $json = NULL): ApiResult {
    $credentials = $this->credentials ?? $this->credentialsFactory->siteCredentials();
    if (!$credentials->isComplete()) {
      return ApiResult::notConfigured();
    }
    // settings.php overrides skip the form's validation: check again here.
    if (SettingsValidator::baseUrlProblem($credentials->baseUrl()) !== NULL) {
      return ApiResult::unsafeAddress();
    }
    [$refusal, $pins] = $this->instanceHost->check($credentials->baseUrl());
    if ($refusal === InstanceHost::PRIVATE) {
      return ApiResult::privateAddress();
    }
    if ($refusal === InstanceHost::UNRESOLVED) {
      return ApiResult::networkFailure('the instance name does not resolve');
    }
    [$url, $route_headers] = LocalhostNames::route($credentials->baseUrl() . $path);
    // The status as soon as the headers came: an answer too large for the
    // sink still says its status.
    $status = 0;
    $options = [
      RequestOptions::HEADERS => [
        'Accept' => 'application/json',
        Contract::AUTH_HEADER => $credentials->token(),
      ] + $route_headers,
      RequestOptions::HTTP_ERRORS => FALSE,
      RequestOptions::CONNECT_TIMEOUT => min(5, $this->timeout),
      RequestOptions::TIMEOUT => $this->timeout,
      RequestOptions::ALLOW_REDIRECTS => FALSE,
      // No more than the limit is ever read (see AnswerSink).
      RequestOptions::SINK => $sink = new AnswerSink(Contract::LIMIT_ANSWER_BYTES),
      RequestOptions::ON_HEADERS => static function (ResponseInterface $headers) use (&$status): void {
        $status = $headers->getStatusCode();
      },
    ];
    if ($json !== NULL) {
      $options[RequestOptions::JSON] = $json;
    }
    if ($pins !== [] && defined('CURLOPT_RESOLVE')) {
      $options['curl'] = [CURLOPT_RESOLVE => $pins];
    }
    $started = microtime(TRUE);
    try {
      $response = $this->httpClient->request($method, $url, $options);
      // A handler that leaves the sink aside (a test's fake) keeps the body
      // in the response: it goes through the same limit.
      if ($response->getBody() !== $sink && $sink->getSize() === 0 && !$sink->overflowed()) {
        Utils::copyToStream($response->getBody(), $sink);
      }
    }
    catch (GuzzleException | \RuntimeException $e) {
      if ($sink->overflowed()) {
        return ApiResult::tooLarge($status, $credentials->token());
      }
      // PHP's stream wrapper reports a time-out as "Connection refused".
      $timed_out = microtime(TRUE) - $started >= $this->timeout - 0.1;
      return ApiResult::networkFailure($timed_out ? sprintf('timed out: no answer within %s s', $this->timeout) : $e->getMessage());
    }
    finally {
      $body = $sink->contents();
      $sink->close();
    }
    if ($sink->overflowed()) {
      return ApiResult::tooLarge($response->getStatusCode(), $credentials->token());
    }
    $retry_after = $response->getHeaderLine('Retry-After');
    return ApiResult::fromResponse(
      $response->getStatusCode(),
      $body,
      ctype_digit($retry_after) ? (int) $retry_after : NULL,
      $answer,
      $credentials->token(),
    );
  }

}
