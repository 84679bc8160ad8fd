<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Api\Credentials;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Api\Credentials
 * @group sitebeam
 */
#[CoversClass(Credentials::class)]
#[Group('sitebeam')]
final class CredentialsTest extends TestCase {

  /**
   * Tests that settings php token wins over config.
   */
  public function testSettingsPhpTokenWinsOverConfig(): void {
    $credentials = Credentials::resolve('https://api.example.test/', 'from-settings', 'from-config');
    $this->assertSame('from-settings', $credentials->token());
    $this->assertSame(Credentials::SOURCE_SETTINGS_PHP, $credentials->tokenSource());
    $this->assertSame('https://api.example.test', $credentials->baseUrl());
    $this->assertTrue($credentials->isComplete());
  }

  /**
   * Tests that config token when settings php has none.
   */
  public function testConfigTokenWhenSettingsPhpHasNone(): void {
    $credentials = Credentials::resolve('https://api.example.test', '  ', 'from-config');
    $this->assertSame('from-config', $credentials->token());
    $this->assertSame(Credentials::SOURCE_CONFIG, $credentials->tokenSource());
  }

  /**
   * Tests that incomplete without token or address.
   */
  public function testIncompleteWithoutTokenOrAddress(): void {
    $this->assertSame(Credentials::SOURCE_NONE, Credentials::resolve('https://api.example.test', NULL, '')->tokenSource());
    $this->assertFalse(Credentials::resolve('https://api.example.test', NULL, NULL)->isComplete());
    $this->assertFalse(Credentials::resolve('', 'token', NULL)->isComplete());
  }

}
