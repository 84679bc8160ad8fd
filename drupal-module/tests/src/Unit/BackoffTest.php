<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Outbox\Backoff;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * When the outbox tries a mail again.
 *
 * @coversDefaultClass \Drupal\sitebeam\Outbox\Backoff
 * @group sitebeam
 */
#[CoversClass(Backoff::class)]
#[Group('sitebeam')]
final class BackoffTest extends TestCase {

  /**
   * Tests that the first retry comes within a minute, jittered.
   */
  public function testFirstRetryComesWithinOneMinuteJittered(): void {
    $this->assertSame(30, Backoff::delay(1, NULL, 0.0));
    $this->assertSame(60, Backoff::delay(1, NULL, 0.9999));
    $this->assertNotSame(Backoff::delay(1, NULL, 0.1), Backoff::delay(1, NULL, 0.7));
  }

  /**
   * Tests that the delay doubles, and never passes an hour.
   */
  public function testDelayDoublesUpToAnHour(): void {
    $this->assertSame([60, 120, 240, 480, 960, 1920, 3600, 3600], array_map(
      static fn (int $tries): int => Backoff::delay($tries, NULL, 0.9999),
      range(1, 8),
    ));
    $this->assertSame(3600, Backoff::delay(200, NULL, 0.9999));
    $this->assertSame(1800, Backoff::delay(200, NULL, 0.0));
  }

  /**
   * Tests that Retry-After is honoured, up to the hour.
   */
  public function testRetryAfterIsHonouredUpToTheHour(): void {
    $this->assertSame(120, Backoff::delay(1, 120, 0.5));
    $this->assertSame(45, Backoff::delay(1, 1, 0.5));
    $this->assertSame(3600, Backoff::delay(1, 86400, 0.5));
  }

}
