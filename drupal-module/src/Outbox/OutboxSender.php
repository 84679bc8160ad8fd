<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Database\DatabaseException;
use Drupal\Core\Lock\LockBackendInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\EventSubscriber\OutboxDelivery;
use Psr\Log\LoggerInterface;

/**
 * Hands waiting mail to the instance, oldest first, past mail that fails.
 *
 * A run tries each due mail once. One that fails again waits for its own
 * next try and the run moves on: no mail holds the others. The run stops
 * early only after Contract::OUTBOX_STOP_AFTER_SAME_FAILURES passing failures
 * of the same kind (the same status; 0: no answer) in a row: the instance is
 * then down, not the mail.
 *
 * While the instance is down and nothing is due, a run tries the mail due
 * soonest ahead of its time: the first one that goes through ends the
 * outage (DeliveryState), which makes the whole backlog due at once.
 *
 * The outbox's own lock (not cron's) keeps a second sender from running
 * beside this one; it expires after a couple of minutes and is renewed for
 * each mail, so a sender killed mid-way holds nothing for long. The claim of
 * each row with an expiry keeps a mail from being sent twice even if a
 * sender outlives its lock. A mail claimed by a sender that died is sent
 * again once the claim expires: so a mail is sent exactly once after a
 * refused connection, a 429 or a 503, and at least once after a time-out or
 * a 502/504 (the instance may have taken it before the answer was lost).
 */
class OutboxSender {

  use StringTranslationTrait;

  public const LOCK = 'sitebeam_outbox';

  /**
   * Seconds a cron run goes on taking new mail: cron has other work.
   */
  public const CRON_RUN_S = 60.0;

  /**
   * Seconds a run after the response goes on: it holds a PHP worker.
   */
  public const TERMINATE_RUN_S = 30.0;

  private const BATCH = 50;

  /**
   * Seconds the lock and each claim hold: longer than one send.
   */
  protected int $lease;

  /**
   * Whether a send of the running run ended an outage.
   */
  protected bool $recovered = FALSE;

  /**
   * Constructs the sender.
   *
   * @param \Drupal\sitebeam\Outbox\Outbox $outbox
   *   The outbox.
   * @param \Drupal\sitebeam\Api\ApiClient $apiClient
   *   The client of the instance.
   * @param \Drupal\Core\Lock\LockBackendInterface $lock
   *   The site's lock backend.
   * @param \Drupal\Component\Datetime\TimeInterface $time
   *   The time.
   * @param \Psr\Log\LoggerInterface $logger
   *   The sitebeam log channel.
   * @param \Drupal\sitebeam\Outbox\DeliveryState $deliveryState
   *   How the last sends went, and the circuit breaker.
   * @param \Drupal\sitebeam\EventSubscriber\OutboxDelivery $delivery
   *   Runs the sender after the response when asked to.
   * @param \Drupal\Core\StringTranslation\TranslationInterface $string_translation
   *   The translation service.
   * @param int $lockSeconds
   *   Seconds the lock and a claim hold (the container parameter
   *   sitebeam.outbox_lock_s), at least the API time-out and 5 s more.
   * @param float $apiTimeout
   *   Seconds one call may take (sitebeam.api_timeout).
   */
  public function __construct(
    protected Outbox $outbox,
    protected ApiClient $apiClient,
    protected LockBackendInterface $lock,
    protected TimeInterface $time,
    protected LoggerInterface $logger,
    protected DeliveryState $deliveryState,
    protected OutboxDelivery $delivery,
    TranslationInterface $string_translation,
    int $lockSeconds = 120,
    float $apiTimeout = 20,
  ) {
    $this->stringTranslation = $string_translation;
    $this->lease = max($lockSeconds, (int) ceil($apiTimeout) + 5);
  }

  /**
   * Sends every mail that is due, oldest first (see the class comment).
   *
   * @param float $seconds
   *   How long the run goes on taking new mail.
   *
   * @return array<string, int>|null
   *   How many mails were delivered, left waiting and failed; NULL when
   *   another sender holds the lock and nothing was done.
   */
  public function deliverDue(float $seconds = self::CRON_RUN_S): ?array {
    if (!$this->lock->acquire(self::LOCK, $this->lease)) {
      return NULL;
    }
    $counts = ['delivered' => 0, 'waiting' => 0, 'failed' => 0];
    $deadline = microtime(TRUE) + $seconds;
    $streak = [NULL, 0];
    $this->recovered = FALSE;
    try {
      if ($this->deliveryState->isDown() && !$this->outbox->hasDue() && ($probe = $this->outbox->nextWaiting()) !== NULL) {
        $this->count($counts, $streak, $this->attempt($probe, FALSE, TRUE));
      }
      // Once through the outbox by id; once more from the start when a send
      // of this run ended an outage, which made the whole backlog due: the
      // mail this run tried already is not tried twice.
      $cursor = 0;
      $tried = [];
      while ($streak[1] < Contract::OUTBOX_STOP_AFTER_SAME_FAILURES && microtime(TRUE) < $deadline) {
        $batch = $this->outbox->due(self::BATCH, $cursor);
        if ($batch === [] && $this->recovered) {
          [$this->recovered, $cursor] = [FALSE, 0];
          continue;
        }
        if ($batch === []) {
          break;
        }
        foreach ($batch as $item) {
          $cursor = $item->id;
          if (isset($tried[$item->id])) {
            continue;
          }
          // The heartbeat: a dead sender's lock expires soon after its last
          // mail.
          if (!$this->lock->acquire(self::LOCK, $this->lease)) {
            return $counts;
          }
          $tried[$item->id] = TRUE;
          $attempt = $this->attempt($item, FALSE);
          $this->count($counts, $streak, $attempt);
          if ($attempt[1]?->nothingSent()) {
            // Nothing can be sent until the settings are fixed.
            return $counts;
          }
          if ($streak[1] >= Contract::OUTBOX_STOP_AFTER_SAME_FAILURES || microtime(TRUE) >= $deadline) {
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
   * Runs when there is something to do and the breaker lets mail through.
   *
   * Something to do: mail is due, or the instance is down and mail waits
   * (the run then tries one ahead of its time).
   *
   * @return array<string, int>|null
   *   The run's counts (see deliverDue()); NULL when nothing ran.
   */
  public function deliverIfDue(float $seconds = self::CRON_RUN_S): ?array {
    if ($this->deliveryState->breakerOpen()) {
      return NULL;
    }
    $work = $this->outbox->hasDue() || ($this->deliveryState->isDown() && $this->outbox->nextWaiting() !== NULL);
    return $work ? $this->deliverDue($seconds) : NULL;
  }

  /**
   * The owner's "Send now": one try of one mail, whatever else waits.
   *
   * A failed mail is tried again with a fresh lifetime; one the instance
   * refused for good only when $againAfterRefusal says the owner confirmed.
   *
   * @return array{outcome: string, detail: string}
   *   outcome: 'delivered', 'waiting' (a passing failure: it waits for its
   *   next try), 'failed' (refused for good), 'busy' (another sender holds
   *   it), 'gone' (no longer in the outbox) or 'needs_confirmation' (refused
   *   for good before; nothing sent). detail: the reason in words.
   */
  public function sendNow(int $id, bool $againAfterRefusal = FALSE): array {
    $item = $this->outbox->get($id);
    if ($item === NULL) {
      return ['outcome' => 'gone', 'detail' => (string) $this->t('That mail is no longer in the outbox.')];
    }
    if ($item->state === OutboxItem::FAILED && $item->failure === OutboxItem::FAILURE_REFUSED && !$againAfterRefusal) {
      return [
        'outcome' => 'needs_confirmation',
        'detail' => (string) $this->t('The instance refused this mail for good (@error). Send it again only once what made it refuse has changed.', ['@error' => $item->lastError]),
      ];
    }
    $this->outbox->makeDue($id);
    $item = $this->outbox->get($id);
    [$outcome, $result] = $item === NULL ? ['gone', NULL] : $this->attempt($item, TRUE);
    if ($outcome === 'busy' && $this->outbox->get($id) === NULL) {
      $outcome = 'gone';
    }
    $error = $result?->logSummary() ?? (string) $this->outbox->get($id)?->lastError;
    $detail = match ($outcome) {
      'delivered' => $this->t('Delivered.'),
      'waiting' => $this->t('Not delivered: @error. It waits in the outbox for its next try.', ['@error' => $error]),
      'failed' => $this->t('Refused for good: @error', ['@error' => $error]),
      'busy' => $this->t('Another sender is sending this mail right now.'),
      default => $this->t('That mail is no longer in the outbox.'),
    };
    return ['outcome' => $outcome, 'detail' => (string) $detail];
  }

  /**
   * Records the answer to a send: the breaker, the outage, its end.
   *
   * The mail plugin and the contact form call it for their direct sends.
   * The first answer after an outage makes the whole backlog due and asks
   * for a run after the response; so does any success while mail is due.
   */
  public function noteResult(ApiResult $result): void {
    if ($this->deliveryState->record($result)) {
      $this->recovered = TRUE;
      try {
        $count = $this->outbox->makeAllDue();
        $this->logger->info('The instance answers again: @count mails of the outbox are due now.', ['@count' => $count]);
      }
      catch (DatabaseException $e) {
        $this->logger->error('The outbox could not be read: @reason', ['@reason' => $e->getMessage()]);
      }
      $this->delivery->requestRun();
    }
    elseif ($result->isSuccess()) {
      $this->delivery->requestRun();
    }
  }

  /**
   * Adds an attempt's outcome to a run's counts and its failure streak.
   *
   * @param array $counts
   *   The run's counts by outcome.
   * @param array $streak
   *   The status of the last passing failures in a row, and how many.
   * @param array $attempt
   *   What attempt() returned.
   */
  private function count(array &$counts, array &$streak, array $attempt): void {
    [$outcome, $result] = $attempt;
    if (isset($counts[$outcome])) {
      $counts[$outcome]++;
    }
    if ($result === NULL) {
      return;
    }
    if (!$result->isPassingFailure()) {
      $streak = [NULL, 0];
      return;
    }
    $status = $result->networkError !== '' ? 0 : $result->status;
    $streak = [$status, $streak[0] === $status ? $streak[1] + 1 : 1];
  }

  /**
   * Claims, gives up or sends one mail, and records what came of it.
   *
   * @param \Drupal\sitebeam\Outbox\OutboxItem $item
   *   The mail, as listed.
   * @param bool $manual
   *   The owner's Send now: no lifetime check.
   * @param bool $early
   *   A try ahead of its time (the outage probe).
   *
   * @return array
   *   The outcome ('delivered', 'waiting', 'failed', 'busy' when another
   *   sender holds it, it is gone or no longer due) and the API's result
   *   when a request was made.
   */
  protected function attempt(OutboxItem $item, bool $manual, bool $early = FALSE): array {
    $now = $this->time->getCurrentTime();
    $claimed = $this->outbox->claim($item->id, $this->lease, $manual || $early ? NULL : $now);
    if ($claimed === NULL) {
      return ['busy', NULL];
    }
    // The item as it is now that this sender holds it.
    [$item, $payload] = $claimed;
    if ($payload === []) {
      $this->outbox->markFailed($item, OutboxItem::FAILURE_REFUSED, 'the stored mail cannot be read, so it cannot be sent');
      $this->logger->error('Mail @id to @to in the outbox cannot be read: failed, not tried again.', [
        '@id' => $item->mailId,
        '@to' => $item->recipient,
      ]);
      return ['failed', NULL];
    }
    if (!$manual && $item->expires <= $now) {
      $error = sprintf('given up after %d tries in %d hours; the last error: %s', $item->tries, intdiv($item->expires - $item->created, 3600), $item->lastError);
      $this->outbox->markFailed($item, OutboxItem::FAILURE_EXPIRED, $error);
      $this->logger->error('Mail @id to @to @error', [
        '@id' => $item->mailId,
        '@to' => $item->recipient,
        '@error' => $error,
      ]);
      return ['failed', NULL];
    }
    $result = $this->apiClient->sendEmail($payload);
    if ($result->nothingSent()) {
      // The site's settings, not the instance, stopped it: no try counted,
      // the mail waits for the settings to be fixed.
      $this->outbox->retryLater($item, $item->tries, $this->time->getCurrentTime() + Contract::OUTBOX_FIRST_RETRY_S, $result);
      $this->logger->error('Mail @id to @to waits in the outbox: @result', [
        '@id' => $item->mailId,
        '@to' => $item->recipient,
        '@result' => $result->logSummary(),
      ]);
      return ['waiting', $result];
    }
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
      $this->noteResult($result);
      return ['delivered', $result];
    }
    if ($result->isPassingFailure()) {
      $next = $this->time->getCurrentTime() + Backoff::delay($tries, $result->retryAfter, random_int(0, 999_999) / 1_000_000);
      $this->outbox->retryLater($item, $tries, $next, $result);
      $this->logger->warning('Mail @id to @to still waiting in the outbox after try @tries: @result', $context);
      $this->noteResult($result);
      return ['waiting', $result];
    }
    $this->outbox->markFailed($item, OutboxItem::FAILURE_REFUSED, $result->logSummary(), $result);
    $this->logger->error('Mail @id to @to refused by the API at try @tries, not tried again: @result', $context);
    $this->noteResult($result);
    return ['failed', $result];
  }

}
