<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

/**
 * When a mail that met a passing failure is tried again.
 *
 * Exponential with jitter, as Postfix's queue and Symfony Messenger's retry
 * strategy: 30-60 s after the first try, doubling, at most an hour between
 * tries. A Retry-After from the instance is honoured up to that hour.
 */
final class Backoff {

  public const FIRST_S = 60;
  public const MAX_S = 3600;

  /**
   * Seconds to wait after the try number $tries (1 for the first) failed.
   *
   * @param int $tries
   *   Tries made so far, at least 1.
   * @param int|null $retry_after
   *   The instance's Retry-After in seconds, if it sent one.
   * @param float $random
   *   A number in [0, 1): the jitter, so that mails queued together by many
   *   sites do not all come back at the same second.
   */
  public static function delay(int $tries, ?int $retry_after, float $random): int {
    $ceiling = min(self::MAX_S, self::FIRST_S * 2 ** min(max($tries, 1) - 1, 12));
    $delay = (int) ceil($ceiling / 2 + $random * $ceiling / 2);
    return min(self::MAX_S, max($delay, $retry_after ?? 0));
  }

}
