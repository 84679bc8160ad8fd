<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\State\StateInterface;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contract;

/**
 * How the last sends to the instance went, shared by every request.
 *
 * Kept in the state API. It holds the circuit breaker: once a send got no
 * answer at all (a time-out, a refused connection), new mail goes straight
 * to the outbox for Contract::OUTBOX_BREAKER_S seconds instead of each page
 * that sends mail waiting for the same time-out. Any answer of the instance
 * that is not a passing failure closes it, and ends an outage.
 */
class DeliveryState {

  public const KEY = 'sitebeam.delivery';

  /**
   * A success while mail flows is written at most this often.
   */
  private const SUCCESS_WRITE_S = 60;

  public function __construct(
    protected StateInterface $state,
    protected TimeInterface $time,
  ) {}

  /**
   * The shared state.
   *
   * @return array{failing_since: int|null, last_error: string, last_status: int, last_success: int|null, breaker_until: int, same_failures: int}
   *   failing_since: when the first passing failure of the current run of
   *   them happened, NULL while mail flows; last_error and last_status: the
   *   last passing failure (status 0: no answer); last_success: when mail
   *   last went through; breaker_until: until when new mail goes straight to
   *   the outbox (0: closed); same_failures: passing failures of
   *   last_status in a row.
   */
  public function get(): array {
    return (array) $this->state->get(self::KEY, []) + [
      'failing_since' => NULL,
      'last_error' => '',
      'last_status' => 0,
      'last_success' => NULL,
      'breaker_until' => 0,
      'same_failures' => 0,
    ];
  }

  /**
   * Whether new mail goes straight to the outbox now.
   */
  public function breakerOpen(): bool {
    return $this->get()['breaker_until'] > $this->time->getCurrentTime();
  }

  /**
   * Why a mail held by the open breaker waits, in words.
   */
  public function heldReason(): string {
    return sprintf('not tried: the instance did not answer a moment ago (%s)', $this->get()['last_error']);
  }

  /**
   * Whether the instance is down rather than one mail failing.
   *
   * Down: the last send got no answer at all, or the last
   * Contract::OUTBOX_STOP_AFTER_SAME_FAILURES sends failed the same way.
   */
  public function isDown(): bool {
    return self::down($this->get());
  }

  /**
   * Whether a state says the instance is down (see isDown()).
   */
  protected static function down(array $state): bool {
    return $state['failing_since'] !== NULL
      && ($state['last_status'] === 0 || $state['same_failures'] >= Contract::OUTBOX_STOP_AFTER_SAME_FAILURES);
  }

  /**
   * Records the answer to one send.
   *
   * @return bool
   *   TRUE when this answer ended an outage (see isDown()): the outbox's
   *   backlog may go now.
   */
  public function record(ApiResult $result): bool {
    if ($result->nothingSent()) {
      // Nothing was sent: the module refused its own settings.
      return FALSE;
    }
    $state = $this->get();
    $now = $this->time->getCurrentTime();
    if ($result->isPassingFailure()) {
      $status = $result->networkError !== '' ? 0 : $result->status;
      $same = $state['failing_since'] !== NULL && $state['last_status'] === $status;
      $state = [
        'failing_since' => $state['failing_since'] ?? $now,
        'last_error' => $result->logSummary(),
        'last_status' => $status,
        'same_failures' => $same ? $state['same_failures'] + 1 : 1,
        'breaker_until' => $status === 0 ? $now + Contract::OUTBOX_BREAKER_S : $state['breaker_until'],
      ] + $state;
      $this->write($state);
      return FALSE;
    }
    $was_down = self::down($state);
    $success = $result->isSuccess();
    $changed = $state['failing_since'] !== NULL || $state['breaker_until'] !== 0;
    if (!$changed && !($success && $now - (int) $state['last_success'] >= self::SUCCESS_WRITE_S)) {
      return FALSE;
    }
    $state = [
      'failing_since' => NULL,
      'same_failures' => 0,
      'breaker_until' => 0,
      'last_success' => $success ? $now : $state['last_success'],
    ] + $state;
    $this->write($state);
    return $was_down;
  }

  /**
   * Stores the state for every request.
   */
  protected function write(array $state): void {
    $this->state->set(self::KEY, $state);
  }

}
