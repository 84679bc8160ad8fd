<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Outbox\Backoff;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * When the outbox tries a mail again: the contract's timing.
 *
 * @coversDefaultClass \Drupal\sitebeam\Outbox\Backoff
 * @group sitebeam
 */
#[CoversClass(Backoff::class)]
#[Group('sitebeam')]
final class BackoffTest extends TestCase {

  /**
   * Tests that the first retry comes within 30 s, jittered from 15 s.
   */
  public function testFirstRetryComesWithinThirtySecondsJittered(): void {
    $this->assertSame(15, Backoff::delay(1, NULL, 0.0));
    $this->assertSame(30, Backoff::delay(1, NULL, 0.9999));
    $this->assertNotSame(Backoff::delay(1, NULL, 0.1), Backoff::delay(1, NULL, 0.7));
  }

  /**
   * Tests that the delay doubles, and never passes an hour.
   */
  public function testDelayDoublesUpToAnHour(): void {
    $this->assertSame([30, 60, 120, 240, 480, 960, 1920, 3600, 3600], array_map(
      static fn (int $tries): int => Backoff::delay($tries, NULL, 0.9999),
      range(1, 9),
    ));
    $this->assertSame(3600, Backoff::delay(200, NULL, 0.9999));
    $this->assertSame(1800, Backoff::delay(200, NULL, 0.0));
  }

  /**
   * Tests that Retry-After is honoured, up to a day.
   */
  public function testRetryAfterIsHonouredUpToOneDay(): void {
    $this->assertSame(120, Backoff::delay(1, 120, 0.5));
    $this->assertSame(23, Backoff::delay(1, 1, 0.5));
    $this->assertSame(7200, Backoff::delay(1, 7200, 0.5));
    $this->assertSame(86400, Backoff::delay(1, 10 ** 9, 0.5));
    $this->assertSame(23, Backoff::delay(1, -5, 0.5));
  }

}
