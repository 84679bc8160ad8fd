<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Settings\SettingsValidator;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Settings\SettingsValidator
 * @group sitebeam
 */
#[CoversClass(SettingsValidator::class)]
#[Group('sitebeam')]
final class SettingsValidatorTest extends TestCase {

  /**
   * Tests that base url.
   *
   * @dataProvider baseUrls
   */
  #[DataProvider('baseUrls')]
  public function testBaseUrl(string $url, ?string $problem): void {
    $this->assertSame($problem, SettingsValidator::baseUrlProblem($url));
  }

  /**
   * Data provider for testBaseUrl().
   */
  public static function baseUrls(): array {
    return [
      'empty: not configured yet' => ['', NULL],
      'https' => ['https://api.example.com', NULL],
      'https with port and slash' => ['https://api.example.com:8443/', NULL],
      'http on localhost' => ['http://localhost:8080', NULL],
      'http on 127.0.0.1' => ['http://127.0.0.1:40123', NULL],
      'http on ::1' => ['http://[::1]:3000', NULL],
      'http elsewhere sends the token in clear' => ['http://api.example.com', SettingsValidator::URL_NOT_HTTPS],
      'http on a look-alike host' => ['http://localhost.evil.test', SettingsValidator::URL_NOT_HTTPS],
      'with the version path' => ['https://api.example.com/v1', SettingsValidator::URL_HAS_PATH],
      'other scheme' => ['ftp://api.example.com', SettingsValidator::URL_INVALID],
      'no scheme' => ['api.example.com', SettingsValidator::URL_INVALID],
      'credentials in the URL' => ['https://user:pw@api.example.com', SettingsValidator::URL_INVALID],
      'query' => ['https://api.example.com?x=1', SettingsValidator::URL_INVALID],
      'spaces' => ['https://api.example .com', SettingsValidator::URL_INVALID],
    ];
  }

  /**
   * Tests that path lines.
   */
  public function testPathLines(): void {
    $this->assertSame(['/admin*', '/user/*/*', 'node'], SettingsValidator::pathLines("/admin*\r\n\n  /user/*/*  \nnode\n"));
    $this->assertSame([], SettingsValidator::pathLines(''));
  }

}
