<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

use Drupal\sitebeam\Contract;

/**
 * When a mail that met a passing failure is tried again.
 *
 * The contract's timing, as every outbox: exponential with jitter, as
 * Postfix's queue and Symfony Messenger's retry strategy. Half of
 * Contract::OUTBOX_FIRST_RETRY_S to all of it after the first try, doubling,
 * at most Contract::OUTBOX_MAX_RETRY_S between tries; never before the
 * instance's Retry-After, honoured up to Contract::OUTBOX_RETRY_AFTER_MAX_S.
 */
final class Backoff {

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
    $ceiling = min(Contract::OUTBOX_MAX_RETRY_S, Contract::OUTBOX_FIRST_RETRY_S * 2 ** min(max($tries, 1) - 1, 16));
    $delay = (int) ceil($ceiling / 2 + $random * $ceiling / 2);
    return max($delay, min(max($retry_after ?? 0, 0), Contract::OUTBOX_RETRY_AFTER_MAX_S));
  }

}
