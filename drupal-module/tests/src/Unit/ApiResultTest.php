<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Api\ApiResult;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Api\ApiResult
 * @group sitebeam
 */
#[CoversClass(ApiResult::class)]
#[Group('sitebeam')]
final class ApiResultTest extends TestCase {

  // The real service's exact bodies (cwcloud-api 3.15.24 and 3.16.15).
  private const UPSTREAM_SENT = '{"status":"ok","adapter":"log","response":""}';
  private const UPSTREAM_PROMPTED = '{"status":"ok","response":["an answer"],"cid":"3f1c","score":null}';
  private const UPSTREAM_AUTH_FAILED = '{"error":"authentification failed","i18n_code":"auth_failed"}';
  private const UPSTREAM_INVALID_TO = '{"detail":[{"loc":["body","to"],"msg":"value is not a valid email address","type":"value_error.email"}]}';
  private const UPSTREAM_NO_AI = '{"status":"ko","error":"Cwai not implemented","i18n_code":"cwai_not_implemened"}';
  private const UPSTREAM_INTERNAL_ERROR = '{"detail":"Internal server error"}';

  /**
   * Tests that diagnosis.
   *
   * @dataProvider answers
   */
  #[DataProvider('answers')]
  public function testDiagnosis(ApiResult $result, string $expected): void {
    $this->assertSame($expected, $result->diagnosis());
  }

  /**
   * Data provider for testDiagnosis().
   */
  public static function answers(): array {
    $error = fn (string $code) => json_encode(['status' => 'ko', 'error' => 'text', 'i18n_code' => $code]);
    return [
      'sent' => [ApiResult::fromResponse(200, '{"status":"ok","id":"1"}'), ApiResult::OK],
      '2xx without status ok' => [ApiResult::fromResponse(200, '<html>'), ApiResult::SERVER_ERROR],
      'token wrong' => [ApiResult::fromResponse(401, $error('auth_failed')), ApiResult::TOKEN_WRONG],
      'email not enabled' => [ApiResult::fromResponse(403, $error('not_emailapi')), ApiResult::NOT_ENABLED],
      'instance without email' => [
        ApiResult::fromResponse(405, $error('disabled_email_service')),
        ApiResult::SERVICE_DISABLED,
      ],
      'bad payload' => [ApiResult::fromResponse(400, $error('invalid_payload')), ApiResult::REJECTED],
      'upstream: sent, no id' => [ApiResult::fromResponse(200, self::UPSTREAM_SENT), ApiResult::OK],
      'upstream: prompt 201, score null' => [ApiResult::fromResponse(201, self::UPSTREAM_PROMPTED), ApiResult::OK],
      'upstream: load 202' => [ApiResult::fromResponse(202, '{"status":"ok","http_status":202}'), ApiResult::OK],
      'upstream: 401 without status' => [
        ApiResult::fromResponse(401, self::UPSTREAM_AUTH_FAILED),
        ApiResult::TOKEN_WRONG,
      ],
      'upstream: 422 detail' => [ApiResult::fromResponse(422, self::UPSTREAM_INVALID_TO), ApiResult::INVALID_FIELD],
      'upstream 3.16.15: no AI' => [ApiResult::fromResponse(405, self::UPSTREAM_NO_AI), ApiResult::AI_ABSENT],
      'upstream: AI not enabled' => [ApiResult::fromResponse(403, $error('not_cwaiapi')), ApiResult::NOT_ENABLED],
      'upstream: account not confirmed' => [
        ApiResult::fromResponse(403, '{"error":"your account has not been confirmed yet","i18n_code":"account_not_confirmed"}'),
        ApiResult::ACCOUNT_NOT_CONFIRMED,
      ],
      'upstream: unknown model in a prompt' => [
        ApiResult::fromResponse(500, self::UPSTREAM_INTERNAL_ERROR),
        ApiResult::SERVER_ERROR,
      ],
      'rate limited' => [ApiResult::fromResponse(429, $error('rate_limited'), 30), ApiResult::RATE_LIMITED],
      'server error' => [ApiResult::fromResponse(503, 'Service Unavailable'), ApiResult::SERVER_ERROR],
      'network' => [ApiResult::networkFailure('cURL error 7: Failed to connect'), ApiResult::UNREACHABLE],
      'not configured' => [ApiResult::notConfigured(), ApiResult::NOT_CONFIGURED],
    ];
  }

  /**
   * Tests that code text and log line.
   */
  public function testCodeTextAndLogLine(): void {
    $result = ApiResult::fromResponse(403, '{"status":"ko","error":"email API not enabled","i18n_code":"not_emailapi"}');
    $this->assertFalse($result->isSuccess());
    $this->assertSame('not_emailapi', $result->code());
    $this->assertSame('email API not enabled', $result->errorText());
    $this->assertSame('HTTP 403 not_emailapi: email API not enabled', $result->logSummary());
  }

  /**
   * Tests that retry after and body without json.
   */
  public function testRetryAfterAndBodyWithoutJson(): void {
    $result = ApiResult::fromResponse(429, 'slow down', 12);
    $this->assertSame(12, $result->retryAfter);
    $this->assertSame('', $result->code());
    $this->assertSame('HTTP 429', $result->errorText());
  }

  /**
   * Tests that network failure log line.
   */
  public function testNetworkFailureLogLine(): void {
    $this->assertSame('network failure: timed out', ApiResult::networkFailure('timed out')->logSummary());
  }

  /**
   * Tests that an answer of the wrong shape is no success and is named.
   *
   * @dataProvider hostileAnswers
   */
  #[DataProvider('hostileAnswers')]
  public function testAnswerOfTheWrongShape(string $answer, string $body, string $named): void {
    $result = ApiResult::fromResponse(200, $body, NULL, $answer);
    $this->assertFalse($result->isSuccess());
    $this->assertSame(ApiResult::SERVER_ERROR, $result->diagnosis());
    $this->assertStringContainsString($named, $result->logSummary());
  }

  /**
   * Data provider for testAnswerOfTheWrongShape().
   */
  public static function hostileAnswers(): array {
    return [
      'score that is HTML' => [
        'prompt',
        '{"status":"ok","response":["hi"],"score":"<img src=x onerror=alert(1)>"}',
        'score is a string, not a number',
      ],
      'response that is a string' => [
        'prompt',
        '{"status":"ok","response":"a string","score":1}',
        'response is a string, not a list',
      ],
      'response of an object and 7' => [
        'prompt',
        '{"status":"ok","response":[{"a":1},7],"score":1}',
        'response[0] is an object, not a string',
      ],
      'model that is a number' => ['models', '{"status":"ok","models":["mock",7]}', 'models[1] is a number'],
      'email id that is a number' => ['email', '{"status":"ok","id":7}', 'id is a number, not a string'],
    ];
  }

  /**
   * Tests that a 422 names each refused field with the service's reason.
   */
  public function testValidationFailureNamesTheFieldsAndReasons(): void {
    $result = ApiResult::fromResponse(422, json_encode([
      'detail' => [
      ['loc' => ['body', 'to'], 'msg' => 'value is not a valid email address', 'type' => 'value_error.email'],
      ['loc' => ['body', 'subject'], 'msg' => 'field required', 'type' => 'value_error.missing'],
      ['loc' => ['body', 'attachment', 'b64'], 'msg' => "str\x1b[31m type expected", 'type' => 'type_error.str'],
      ['loc' => ['body'], 'msg' => 'field required', 'type' => 'value_error.missing'],
      ],
    ]));
    $this->assertSame([
      'to' => 'value is not a valid email address',
      'subject' => 'field required',
      'attachment.b64' => 'str\e[31m type expected',
      'body' => 'field required',
    ], $result->refusedFields());
    $this->assertSame('HTTP 422: to: value is not a valid email address; subject: field required; attachment.b64: str\e[31m type expected; body: field required', $result->logSummary());
  }

  /**
   * Tests that only a 422 with a detail list is read as refused fields.
   */
  public function testOnlyA422DetailListIsRefusedFields(): void {
    $this->assertSame([], ApiResult::fromResponse(422, '{"detail":"Unprocessable"}')->refusedFields());
    $this->assertSame([], ApiResult::fromResponse(400, self::UPSTREAM_INVALID_TO)->refusedFields());
    $this->assertSame(ApiResult::REJECTED, ApiResult::fromResponse(422, '<html>')->diagnosis());
  }

  /**
   * Tests that only an answer past the token and email guards proves both.
   *
   * @dataProvider probeAnswers
   */
  #[DataProvider('probeAnswers')]
  public function testProbeProvesEmailApi(int $status, string $body, bool $proves): void {
    $this->assertSame($proves, ApiResult::fromResponse($status, $body)->provesEmailApi());
  }

  /**
   * Data provider for testProbeProvesEmailApi().
   */
  public static function probeAnswers(): array {
    $missing = fn (string $field) => [
      'loc' => ['body', $field],
      'msg' => 'field required',
      'type' => 'value_error.missing',
    ];
    $empty_body_refused = json_encode(['detail' => [$missing('to'), $missing('subject')]]);
    return [
      'upstream: empty body refused after the guards' => [422, $empty_body_refused, TRUE],
      'stub: invalid_payload' => [400, '{"status":"ko","i18n_code":"invalid_payload"}', TRUE],
      'wrong token' => [401, self::UPSTREAM_AUTH_FAILED, FALSE],
      'email API not enabled' => [403, '{"error":"permission denied","i18n_code":"not_emailapi"}', FALSE],
      'a 422 that is no validation answer' => [422, '{"detail":"Unprocessable"}', FALSE],
      'server error' => [500, self::UPSTREAM_INTERNAL_ERROR, FALSE],
    ];
  }

  /**
   * Tests that the right shape, unknown fields included, is a success.
   */
  public function testAnswerOfTheRightShape(): void {
    $result = ApiResult::fromResponse(200, '{"status":"ok","response":["hi"],"score":0.5,"cid":"x"}', NULL, 'prompt');
    $this->assertTrue($result->isSuccess());
  }

  /**
   * Tests that an answer over the limit is no success and is named.
   */
  public function testAnswerOverTheLimit(): void {
    $result = ApiResult::tooLarge(200);
    $this->assertFalse($result->isSuccess());
    $this->assertStringContainsString('larger than 1048576 bytes', $result->logSummary());
  }

  /**
   * Tests that the log line is one line, controls visible, without the token.
   */
  public function testLogLineOfHostileErrorText(): void {
    $body = json_encode([
      'status' => 'ko',
      'error' => "\e]0;owned\x07\e[2Jtoken SECRET-TOKEN refused\nsecond line",
      'i18n_code' => "invalid_payload\e[31m",
    ]);
    $line = ApiResult::fromResponse(400, $body, NULL, 'email', 'SECRET-TOKEN')->logSummary();
    $this->assertSame('HTTP 400 invalid_payload\e[31m: \e]0;owned\x07\e[2Jtoken [token] refused\nsecond line', $line);

  }

  /**
   * Tests that FastAPI's own error text is read from detail.
   */
  public function testInternalErrorTextIsReadFromDetail(): void {
    $this->assertSame('HTTP 500: Internal server error', ApiResult::fromResponse(500, self::UPSTREAM_INTERNAL_ERROR)->logSummary());
    $this->assertSame('HTTP 405 cwai_not_implemened: Cwai not implemented', ApiResult::fromResponse(405, self::UPSTREAM_NO_AI)->logSummary());
  }

  /**
   * Tests which failures pass (the outbox keeps them) and which are for good.
   */
  public function testPassingFailuresAreTheNetworkTimeOutsRateLimitsAndServerErrors(): void {
    $passing = [
      ApiResult::networkFailure('Connection refused'),
      ApiResult::networkFailure('timed out: no answer within 20 s'),
      ApiResult::fromResponse(429, '{"status":"ko"}', 30),
      ApiResult::fromResponse(500, ''),
      ApiResult::fromResponse(502, '<html>Bad gateway</html>'),
      ApiResult::fromResponse(503, '{"status":"ko","i18n_code":"model_loading"}'),
      ApiResult::tooLarge(504),
    ];
    foreach ($passing as $index => $result) {
      $this->assertTrue($result->isPassingFailure(), "passing #$index");
    }
    $for_good = [
      ApiResult::fromResponse(200, '{"status":"ok"}'),
      ApiResult::fromResponse(200, '{"status":"ok","id":[]}', NULL, 'email'),
      ApiResult::fromResponse(400, '{"status":"ko","i18n_code":"invalid_payload"}'),
      ApiResult::fromResponse(401, '{"status":"ko"}'),
      ApiResult::fromResponse(403, '{"status":"ko"}'),
      ApiResult::fromResponse(413, '{"status":"ko"}'),
      ApiResult::fromResponse(422, '{"detail":[{"loc":["body","to"],"msg":"invalid"}]}'),
      ApiResult::notConfigured(),
      ApiResult::unsafeAddress(),
      ApiResult::privateAddress(),
    ];
    foreach ($for_good as $index => $result) {
      $this->assertFalse($result->isPassingFailure(), "for good #$index");
    }
  }

}
