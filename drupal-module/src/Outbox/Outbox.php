<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Database\Connection;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contract;

/**
 * Mail the instance could not take for a passing reason, kept in a table.
 *
 * Each row is one /v1/email payload exactly as it was first written (one
 * recipient, mapped headers, body, attachment), so a later try sends what
 * the site meant to send. A row is deleted as soon as it is delivered.
 */
class Outbox {

  public const TABLE = 'sitebeam_outbox';

  public function __construct(
    protected Connection $database,
    protected ConfigFactoryInterface $configFactory,
    protected TimeInterface $time,
  ) {}

  /**
   * Keeps a payload the instance failed to take for a passing reason.
   *
   * @param array $payload
   *   The /v1/email payload.
   * @param string $mail_id
   *   What sent it: Drupal's message id (user_password_reset…).
   * @param \Drupal\sitebeam\Api\ApiResult $result
   *   The passing failure: its words and its Retry-After.
   * @param int $tries
   *   Tries made: 1 when this payload was tried, 0 when an earlier copy of
   *   the same message met the failure and this one was kept untried.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   The outbox is at its cap in mails or bytes.
   */
  public function defer(array $payload, string $mail_id, ApiResult $result, int $tries = 1): int {
    $delay = Backoff::delay(max(1, $tries), $result->retryAfter, random_int(0, 999_999) / 1_000_000);
    return $this->add($payload, $mail_id, $result->logSummary(), $tries, $this->time->getCurrentTime() + $delay);
  }

  /**
   * Keeps a payload for later; returns the row's id.
   *
   * @param array $payload
   *   The /v1/email payload.
   * @param string $mail_id
   *   What sent it: Drupal's message id (user_password_reset…).
   * @param string $last_error
   *   Why it waits, in words (ApiResult::logSummary()).
   * @param int $tries
   *   Tries made already: 1 after a failed send, 0 when it was never tried.
   * @param int $next_try
   *   When to try it, a Unix time.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   The outbox is at its cap in mails or bytes.
   */
  public function add(array $payload, string $mail_id, string $last_error, int $tries, int $next_try): int {
    $json = json_encode($payload, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
    $settings = $this->configFactory->get('sitebeam.settings');
    [$count, $bytes] = $this->size();
    $max_mails = (int) $settings->get('mail.outbox.max_mails');
    $max_bytes = (int) $settings->get('mail.outbox.max_bytes');
    if ($count + 1 > $max_mails || $bytes + strlen($json) > $max_bytes) {
      throw new OutboxFullException(sprintf('the outbox is full (%d of %d mails, %d of %d bytes)', $count, $max_mails, $bytes, $max_bytes));
    }
    $now = $this->time->getCurrentTime();
    return (int) $this->database->insert(self::TABLE)->fields([
      'recipient' => mb_substr((string) ($payload[Contract::EMAIL_FIELD_TO] ?? ''), 0, 254),
      'subject' => mb_substr((string) ($payload[Contract::EMAIL_FIELD_SUBJECT] ?? ''), 0, 255),
      'mail_id' => mb_substr($mail_id, 0, 128),
      'payload' => $json,
      'bytes' => strlen($json),
      'created' => $now,
      'next_try' => $next_try,
      'expires' => $now + $this->lifetime(),
      'tries' => $tries,
      'state' => OutboxItem::WAITING,
      'last_error' => mb_substr($last_error, 0, 1000),
      'claimed_until' => 0,
    ])->execute();
  }

  /**
   * Seconds a mail keeps being tried before it is given up.
   */
  public function lifetime(): int {
    return max(60, (int) $this->configFactory->get('sitebeam.settings')->get('mail.outbox.lifetime'));
  }

  /**
   * Waiting mails whose time has come and no sender holds, oldest first.
   *
   * @return \Drupal\sitebeam\Outbox\OutboxItem[]
   *   At most $limit items.
   */
  public function due(int $limit): array {
    $now = $this->time->getCurrentTime();
    $rows = $this->select()
      ->condition('state', OutboxItem::WAITING)
      ->condition('next_try', $now, '<=')
      ->condition('claimed_until', $now, '<')
      ->orderBy('id')
      ->range(0, $limit)
      ->execute();
    return array_map(OutboxItem::fromRow(...), $rows->fetchAll());
  }

  /**
   * Every mail, waiting and failed, oldest first.
   *
   * @return \Drupal\sitebeam\Outbox\OutboxItem[]
   *   The items.
   */
  public function all(int $limit = 500): array {
    return array_map(OutboxItem::fromRow(...), $this->select()->orderBy('id')->range(0, $limit)->execute()->fetchAll());
  }

  /**
   * One item, or NULL when it is gone.
   */
  public function get(int $id): ?OutboxItem {
    $row = $this->select()->condition('id', $id)->execute()->fetchObject();
    return $row ? OutboxItem::fromRow($row) : NULL;
  }

  /**
   * Takes a mail for one sender until $lease seconds from now.
   *
   * One UPDATE that matches only while no one holds it: of two senders
   * claiming together, exactly one changes the row.
   *
   * @return array|null
   *   The payload when this sender holds it now; NULL when another does, or
   *   the row is gone.
   */
  public function claim(int $id, int $lease): ?array {
    $now = $this->time->getCurrentTime();
    $claimed = $this->database->update(self::TABLE)
      ->fields(['claimed_until' => $now + $lease])
      ->condition('id', $id)
      ->condition('claimed_until', $now, '<')
      ->execute();
    if (!$claimed) {
      return NULL;
    }
    $json = $this->database->select(self::TABLE, 'o')->fields('o', ['payload'])->condition('id', $id)->execute()->fetchField();
    $payload = is_string($json) ? json_decode($json, TRUE) : NULL;
    return is_array($payload) ? $payload : NULL;
  }

  /**
   * Forgets a mail: delivered, or deleted by the owner.
   */
  public function delete(int $id): bool {
    return $this->database->delete(self::TABLE)->condition('id', $id)->execute() > 0;
  }

  /**
   * Puts a claimed mail back to wait until $next_try.
   */
  public function retryLater(int $id, int $tries, int $next_try, string $error): void {
    $this->database->update(self::TABLE)->fields([
      'tries' => $tries,
      'next_try' => $next_try,
      'last_error' => mb_substr($error, 0, 1000),
      'claimed_until' => 0,
    ])->condition('id', $id)->execute();
  }

  /**
   * Gives a mail up: it stays, shown as failed, until the owner acts on it.
   */
  public function markFailed(int $id, int $tries, string $error): void {
    $this->database->update(self::TABLE)->fields([
      'tries' => $tries,
      'state' => OutboxItem::FAILED,
      'last_error' => mb_substr($error, 0, 1000),
      'claimed_until' => 0,
    ])->condition('id', $id)->execute();
  }

  /**
   * Makes a mail due now, a failed one waiting again with a fresh lifetime.
   */
  public function makeDue(int $id): void {
    $now = $this->time->getCurrentTime();
    $item = $this->get($id);
    if ($item === NULL) {
      return;
    }
    $fields = ['next_try' => $now];
    if ($item->state === OutboxItem::FAILED || $item->expires <= $now) {
      $fields += ['state' => OutboxItem::WAITING, 'expires' => $now + $this->lifetime()];
    }
    $this->database->update(self::TABLE)->fields($fields)->condition('id', $id)->execute();
  }

  /**
   * TRUE when the table is there (update 10008 has run).
   */
  public function exists(): bool {
    return $this->database->schema()->tableExists(self::TABLE);
  }

  /**
   * How many mails and bytes the outbox holds.
   *
   * @return int[]
   *   [mails, bytes].
   */
  public function size(): array {
    $query = $this->database->select(self::TABLE, 'o');
    $query->addExpression('COUNT(*)', 'mails');
    $query->addExpression('COALESCE(SUM(bytes), 0)', 'bytes');
    $row = $query->execute()->fetchObject();
    return [(int) $row->mails, (int) $row->bytes];
  }

  /**
   * When the oldest waiting mail was accepted, or NULL when none waits.
   */
  public function oldestWaiting(): ?int {
    $query = $this->database->select(self::TABLE, 'o')->condition('state', OutboxItem::WAITING);
    $query->addExpression('MIN(created)', 'oldest');
    $oldest = $query->execute()->fetchField();
    return $oldest === NULL || $oldest === FALSE ? NULL : (int) $oldest;
  }

  /**
   * How many mails were given up.
   */
  public function failedCount(): int {
    return (int) $this->database->select(self::TABLE, 'o')->condition('state', OutboxItem::FAILED)->countQuery()->execute()->fetchField();
  }

  /**
   * A select of every column but the payload.
   */
  protected function select() {
    return $this->database->select(self::TABLE, 'o')->fields('o', [
      'id', 'recipient', 'subject', 'mail_id', 'created', 'next_try', 'expires',
      'tries', 'state', 'last_error', 'bytes',
    ]);
  }

}
