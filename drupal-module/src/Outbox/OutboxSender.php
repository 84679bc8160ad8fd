<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Lock\LockBackendInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Psr\Log\LoggerInterface;

/**
 * Hands waiting mail to the instance: one sender at a time, oldest first.
 *
 * The lock keeps a second cron run (or a "Send now" click) from sending
 * beside this one; the claim of each row with an expiry keeps a mail from
 * being sent twice even if a sender outlives its lock. A sender that dies
 * mid-way leaves its mail claimed until the claim expires: it is then sent
 * again. So a mail is sent exactly once after a 5xx, a 429 or a refused
 * connection, and at least once after a time-out (the instance may have
 * sent it before the answer was lost).
 */
class OutboxSender {

  public const LOCK = 'sitebeam_outbox';

  /**
   * Seconds a claim holds a mail: longer than one request may take.
   */
  private const LEASE_S = 120;

  /**
   * Seconds one run goes on taking new mail: cron has other work.
   */
  private const RUN_S = 60.0;

  private const BATCH = 50;

  public function __construct(
    protected Outbox $outbox,
    protected ApiClient $apiClient,
    protected LockBackendInterface $lock,
    protected TimeInterface $time,
    protected LoggerInterface $logger,
  ) {}

  /**
   * Sends every mail that is due, oldest first.
   *
   * Stops early while the instance is unreachable, rate-limits or is
   * unavailable (503): the rest waits for the next run.
   *
   * @return array<string, int>|null
   *   How many mails were delivered, left waiting and failed; NULL when
   *   another sender holds the lock and nothing was done.
   */
  public function deliverDue(): ?array {
    if (!$this->lock->acquire(self::LOCK, self::RUN_S + self::LEASE_S)) {
      return NULL;
    }
    $counts = ['delivered' => 0, 'waiting' => 0, 'failed' => 0];
    $deadline = microtime(TRUE) + self::RUN_S;
    try {
      while (microtime(TRUE) < $deadline && ($batch = $this->outbox->due(self::BATCH)) !== []) {
        foreach ($batch as $item) {
          [$outcome, $result] = $this->attempt($item, FALSE);
          if ($outcome !== NULL) {
            $counts[$outcome]++;
          }
          if ($result !== NULL && self::instanceIsDown($result)) {
            return $counts;
          }
          if (microtime(TRUE) >= $deadline) {
            break;
          }
        }
      }
      return $counts;
    }
    finally {
      $this->lock->release(self::LOCK);
    }
  }

  /**
   * The owner's "Send now": one try of one mail, failed ones included.
   *
   * @return string|null
   *   'delivered', 'waiting' or 'failed'; NULL when another sender is at work
   *   or the mail is gone.
   */
  public function sendNow(int $id): ?string {
    if (!$this->lock->acquire(self::LOCK, self::LEASE_S)) {
      return NULL;
    }
    try {
      $this->outbox->makeDue($id);
      $item = $this->outbox->get($id);
      return $item === NULL ? NULL : $this->attempt($item, TRUE)[0];
    }
    finally {
      $this->lock->release(self::LOCK);
    }
  }

  /**
   * Claims, gives up or sends one mail, and records what came of it.
   *
   * @return array
   *   The outcome ('delivered', 'waiting', 'failed', NULL when another
   *   sender holds it) and the API's result when a request was made.
   */
  protected function attempt(OutboxItem $item, bool $manual): array {
    $payload = $this->outbox->claim($item->id, self::LEASE_S);
    if ($payload === NULL) {
      return [NULL, NULL];
    }
    $now = $this->time->getCurrentTime();
    if (!$manual && $item->expires <= $now) {
      $error = sprintf('given up after %d tries in %d hours; the last error: %s', $item->tries, intdiv($item->expires - $item->created, 3600), $item->lastError);
      $this->outbox->markFailed($item->id, $item->tries, $error);
      $this->logger->error('Mail @id to @to @error', [
        '@id' => $item->mailId,
        '@to' => $item->recipient,
        '@error' => $error,
      ]);
      return ['failed', NULL];
    }
    $result = $this->apiClient->sendEmail($payload);
    $tries = $item->tries + 1;
    $context = [
      '@id' => $item->mailId,
      '@to' => $item->recipient,
      '@tries' => $tries,
      '@result' => $result->logSummary(),
    ];
    if ($result->isSuccess()) {
      $this->outbox->delete($item->id);
      $this->logger->info('Mail @id to @to delivered from the outbox at try @tries.', $context);
      return ['delivered', $result];
    }
    if ($result->isPassingFailure()) {
      $next = $this->time->getCurrentTime() + Backoff::delay($tries, $result->retryAfter, random_int(0, 999_999) / 1_000_000);
      $this->outbox->retryLater($item->id, $tries, $next, $result->logSummary());
      $this->logger->warning('Mail @id to @to still waiting in the outbox after try @tries: @result', $context);
      return ['waiting', $result];
    }
    $this->outbox->markFailed($item->id, $tries, $result->logSummary());
    $this->logger->error('Mail @id to @to refused by the API at try @tries, not tried again: @result', $context);
    return ['failed', $result];
  }

  /**
   * True when trying the next mail now would fail the same way.
   */
  private static function instanceIsDown(ApiResult $result): bool {
    return $result->diagnosis() === ApiResult::UNREACHABLE || in_array($result->status, [429, 503], TRUE);
  }

}
