<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Api\ApiResult;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Api\ApiResult
 * @group sitebeam
 */
final class ApiResultTest extends TestCase {

  /**
   * Tests that diagnosis.
   *
   * @dataProvider answers
   */
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
      'email without id' => ['email', '{"status":"ok"}', 'id is missing'],
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

}
