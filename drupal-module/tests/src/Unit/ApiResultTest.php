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

}
