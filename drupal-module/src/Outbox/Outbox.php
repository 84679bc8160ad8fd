<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Database\Connection;
use Drupal\Core\Database\Query\SelectInterface;
use Drupal\Core\Lock\LockBackendInterface;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contract;

/**
 * Mail the instance could not take for a passing reason, kept in a table.
 *
 * Each row is one /v1/email payload exactly as it was first written (one
 * recipient, mapped headers, body, attachment), so a later try sends what
 * the site meant to send. A row is deleted as soon as it is delivered.
 *
 * Every method may throw \Drupal\Core\Database\DatabaseException (no table
 * before update 10009 or 10008 has run, a payload over the database's packet
 * size…): callers treat it as a mail not kept.
 */
class Outbox {

  public const TABLE = 'sitebeam_outbox';

  /**
   * The lock that makes the cap check and the insert one step.
   */
  public const ADD_LOCK = 'sitebeam_outbox_add';

  public function __construct(
    protected Connection $database,
    protected ConfigFactoryInterface $configFactory,
    protected TimeInterface $time,
    protected LockBackendInterface $lock,
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
   * @param string $kind
   *   OutboxItem::KIND_SITE or OutboxItem::KIND_CONTACT.
   * @param string $visitor
   *   For a contact message, the visitor's address.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   The outbox (or the contact messages' share of it) is at its cap.
   */
  public function defer(array $payload, string $mail_id, ApiResult $result, int $tries = 1, string $kind = OutboxItem::KIND_SITE, string $visitor = ''): int {
    $now = $this->time->getCurrentTime();
    $delay = Backoff::delay(max(1, $tries), $result->retryAfter, random_int(0, 999_999) / 1_000_000);
    return $this->add($payload, $mail_id, [
      'last_error' => $result->logSummary(),
      'tries' => $tries,
      'next_try' => $now + $delay,
      'last_try' => $tries > 0 ? $now : 0,
      'history' => $tries > 0 ? OutboxItem::historyWith([], $now, $result->status, $result->logSummary()) : '[]',
      'kind' => $kind,
      'visitor' => $visitor,
    ]);
  }

  /**
   * Keeps a payload untried until $next_try: the circuit breaker is open.
   *
   * @param array $payload
   *   The /v1/email payload.
   * @param string $mail_id
   *   What sent it.
   * @param string $reason
   *   Why it was not tried, in words.
   * @param int $next_try
   *   When to try it, a Unix time.
   * @param string $kind
   *   OutboxItem::KIND_SITE or OutboxItem::KIND_CONTACT.
   * @param string $visitor
   *   For a contact message, the visitor's address.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   The outbox (or the contact messages' share of it) is at its cap.
   */
  public function hold(array $payload, string $mail_id, string $reason, int $next_try, string $kind = OutboxItem::KIND_SITE, string $visitor = ''): int {
    return $this->add($payload, $mail_id, [
      'last_error' => $reason,
      'tries' => 0,
      'next_try' => $next_try,
      'kind' => $kind,
      'visitor' => $visitor,
    ]);
  }

  /**
   * Inserts a row if the caps allow it; returns its id.
   *
   * The count and the insert hold the add lock between them: two requests
   * adding at once cannot both take the last place. (A transaction alone
   * does not serialise two inserts under READ COMMITTED.)
   *
   * @param array $payload
   *   The /v1/email payload.
   * @param string $mail_id
   *   What sent it.
   * @param array $fields
   *   The row's columns besides those of the payload: last_error, tries,
   *   next_try, and optionally last_try, history, kind, visitor.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   The outbox (or the contact messages' share of it) is at its cap.
   */
  protected function add(array $payload, string $mail_id, array $fields): int {
    $json = json_encode($payload, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE | JSON_THROW_ON_ERROR);
    $kind = $fields['kind'] ?? OutboxItem::KIND_SITE;
    $attachment = $payload[Contract::EMAIL_FIELD_ATTACHMENT][Contract::ATTACHMENT_FIELD_FILE_NAME] ?? '';
    $now = $this->time->getCurrentTime();
    $row = [
      'recipient' => mb_substr((string) ($payload[Contract::EMAIL_FIELD_TO] ?? ''), 0, 254),
      'subject' => mb_substr((string) ($payload[Contract::EMAIL_FIELD_SUBJECT] ?? ''), 0, 255),
      'mail_id' => mb_substr($mail_id, 0, 128),
      'payload' => $json,
      'bytes' => strlen($json),
      'created' => $now,
      'expires' => $now + $this->lifetime(),
      'state' => OutboxItem::WAITING,
      'claimed_until' => 0,
      'kind' => $kind,
      'failure' => '',
      'last_try' => 0,
      'history' => '[]',
      'attachment' => mb_substr(is_string($attachment) ? $attachment : '', 0, 255),
      'visitor' => mb_substr(mb_strtolower(trim((string) ($fields['visitor'] ?? ''))), 0, 254),
    ];
    $row = array_intersect_key($fields, array_flip(['next_try', 'tries', 'last_try', 'history'])) + $row;
    $row['last_error'] = mb_substr((string) $fields['last_error'], 0, 1000);
    $this->lockForAdding();
    try {
      $this->assertRoom($kind, strlen($json));
      return (int) $this->database->insert(self::TABLE)->fields($row)->execute();
    }
    finally {
      $this->lock->release(self::ADD_LOCK);
    }
  }

  /**
   * Takes the add lock, waiting a few seconds at most for another adder.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   Others held it all that time.
   */
  protected function lockForAdding(): void {
    for ($attempt = 0; $attempt < 5; $attempt++) {
      if ($this->lock->acquire(self::ADD_LOCK, 10)) {
        return;
      }
      $this->lock->wait(self::ADD_LOCK, 1);
    }
    throw new OutboxFullException('the outbox is busy: other mail is being added');
  }

  /**
   * Refuses a row of $bytes of this kind beyond a cap.
   *
   * The site's mail may fill the whole outbox; contact messages only their
   * share of it, so that a flood of them leaves room for password resets.
   *
   * @throws \Drupal\sitebeam\Outbox\OutboxFullException
   *   The outbox, or the contact messages' share, is full.
   */
  protected function assertRoom(string $kind, int $bytes): void {
    [$max_mails, $max_bytes] = $this->caps();
    [$count, $size] = $this->size();
    if ($count + 1 > $max_mails || $size + $bytes > $max_bytes) {
      throw new OutboxFullException(sprintf('the outbox is full (%d of %d mails, %d of %d bytes)', $count, $max_mails, $size, $max_bytes));
    }
    if ($kind !== OutboxItem::KIND_CONTACT) {
      return;
    }
    [$contact_mails, $contact_bytes] = $this->contactCaps();
    [$count, $size] = $this->size(OutboxItem::KIND_CONTACT);
    if ($count + 1 > $contact_mails || $size + $bytes > $contact_bytes) {
      throw new OutboxFullException(sprintf("the contact messages' share of the outbox is full (%d of %d mails, %d of %d bytes)", $count, $contact_mails, $size, $contact_bytes));
    }
  }

  /**
   * The caps of the whole outbox: [mails, bytes].
   *
   * @return int[]
   *   Mails and bytes.
   */
  public function caps(): array {
    $settings = $this->configFactory->get('sitebeam.settings');
    return [(int) $settings->get('mail.outbox.max_mails'), (int) $settings->get('mail.outbox.max_bytes')];
  }

  /**
   * The caps of contact messages, their share of the outbox: [mails, bytes].
   *
   * @return int[]
   *   Mails and bytes, at least one mail.
   */
  public function contactCaps(): array {
    $share = $this->configFactory->get('sitebeam.settings')->get('mail.outbox.contact_share');
    $share = min(100, max(0, $share === NULL ? 50 : (int) $share));
    [$mails, $bytes] = $this->caps();
    return [intdiv($mails * $share, 100), intdiv($bytes * $share, 100)];
  }

  /**
   * Seconds a mail keeps being tried before it is given up.
   */
  public function lifetime(): int {
    return max(60, (int) $this->configFactory->get('sitebeam.settings')->get('mail.outbox.lifetime'));
  }

  /**
   * Days a failed mail is kept before cron deletes it.
   */
  public function retentionDays(): int {
    $days = $this->configFactory->get('sitebeam.settings')->get('mail.outbox.retention_days');
    return max(1, $days === NULL ? 30 : (int) $days);
  }

  /**
   * Waiting mails whose time has come and no sender holds, oldest first.
   *
   * @param int $limit
   *   How many at most.
   * @param int $after
   *   Only mail of a higher id: a run goes through the outbox once, past
   *   mail that failed again.
   *
   * @return \Drupal\sitebeam\Outbox\OutboxItem[]
   *   At most $limit items.
   */
  public function due(int $limit, int $after = 0): array {
    $now = $this->time->getCurrentTime();
    $rows = $this->select()
      ->condition('state', OutboxItem::WAITING)
      ->condition('next_try', $now, '<=')
      ->condition('claimed_until', $now, '<')
      ->condition('id', $after, '>')
      ->orderBy('id')
      ->range(0, $limit)
      ->execute();
    return array_map(OutboxItem::fromRow(...), $rows->fetchAll());
  }

  /**
   * Whether a waiting mail is due now (one indexed query).
   */
  public function hasDue(): bool {
    $now = $this->time->getCurrentTime();
    return (bool) $this->database->select(self::TABLE, 'o')
      ->fields('o', ['id'])
      ->condition('state', OutboxItem::WAITING)
      ->condition('next_try', $now, '<=')
      ->condition('claimed_until', $now, '<')
      ->range(0, 1)
      ->execute()
      ->fetchField();
  }

  /**
   * The waiting mail due soonest that no sender holds, due now or not.
   *
   * What a run tries, ahead of its time, to learn whether an instance that
   * was down is back.
   */
  public function nextWaiting(): ?OutboxItem {
    $now = $this->time->getCurrentTime();
    $row = $this->select()
      ->condition('state', OutboxItem::WAITING)
      ->condition('claimed_until', $now, '<')
      ->orderBy('next_try')
      ->orderBy('id')
      ->range(0, 1)
      ->execute()
      ->fetchObject();
    return $row ? OutboxItem::fromRow($row) : NULL;
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
   * The contact messages a visitor sent that still wait or failed.
   *
   * Drupal core has no personal-data export or erasure API: this and
   * deleteForVisitor() are what a privacy module or a drush command can call.
   *
   * @return \Drupal\sitebeam\Outbox\OutboxItem[]
   *   The items, oldest first.
   */
  public function forVisitor(string $email): array {
    $email = mb_strtolower(trim($email));
    if ($email === '') {
      return [];
    }
    return array_map(OutboxItem::fromRow(...), $this->select()->condition('visitor', $email)->orderBy('id')->execute()->fetchAll());
  }

  /**
   * Deletes the contact messages a visitor sent; returns how many.
   */
  public function deleteForVisitor(string $email): int {
    $email = mb_strtolower(trim($email));
    return $email === '' ? 0 : (int) $this->database->delete(self::TABLE)->condition('visitor', $email)->execute();
  }

  /**
   * Takes a mail for one sender until $lease seconds from now.
   *
   * One UPDATE that matches only while no one holds it: of two senders
   * claiming together, exactly one changes the row.
   *
   * @param int $id
   *   The row.
   * @param int $lease
   *   Seconds the claim holds.
   * @param int|null $due_by
   *   Claims it only if it is due by then (NULL: due or not).
   *
   * @return array|null
   *   When this sender holds it now: the item as it is now and its payload
   *   ([] when it cannot be read); NULL when another sender holds it, or the
   *   row is gone.
   */
  public function claim(int $id, int $lease, ?int $due_by = NULL): ?array {
    $now = $this->time->getCurrentTime();
    $query = $this->database->update(self::TABLE)
      ->fields(['claimed_until' => $now + $lease])
      ->condition('id', $id)
      ->condition('state', OutboxItem::WAITING)
      ->condition('claimed_until', $now, '<');
    if ($due_by !== NULL) {
      $query->condition('next_try', $due_by, '<=');
    }
    if (!$query->execute()) {
      return NULL;
    }
    $row = $this->select()->fields('o', ['payload'])->condition('id', $id)->execute()->fetchObject();
    if (!$row) {
      return NULL;
    }
    $payload = is_string($row->payload) ? json_decode($row->payload, TRUE) : NULL;
    return [OutboxItem::fromRow($row), is_array($payload) && isset($payload[Contract::EMAIL_FIELD_TO]) ? $payload : []];
  }

  /**
   * Forgets a mail: delivered, or deleted by the owner.
   */
  public function delete(int $id): bool {
    return $this->database->delete(self::TABLE)->condition('id', $id)->execute() > 0;
  }

  /**
   * Deletes these mails, whatever their state; returns how many.
   *
   * @param int[] $ids
   *   Row ids.
   */
  public function deleteMany(array $ids): int {
    $ids = array_values(array_filter(array_map('intval', $ids), static fn (int $id): bool => $id > 0));
    return $ids === [] ? 0 : (int) $this->database->delete(self::TABLE)->condition('id', $ids, 'IN')->execute();
  }

  /**
   * Deletes every mail of a state and kind; returns how many.
   *
   * A mail a sender holds right now is being sent: it is left alone.
   *
   * @param string|null $state
   *   OutboxItem::WAITING, OutboxItem::FAILED, or NULL for both.
   * @param string|null $kind
   *   OutboxItem::KIND_SITE, OutboxItem::KIND_CONTACT, or NULL for both.
   */
  public function deleteAll(?string $state = NULL, ?string $kind = NULL): int {
    $query = $this->database->delete(self::TABLE)->condition('claimed_until', $this->time->getCurrentTime(), '<');
    if ($state !== NULL) {
      $query->condition('state', $state);
    }
    if ($kind !== NULL) {
      $query->condition('kind', $kind);
    }
    return (int) $query->execute();
  }

  /**
   * Deletes failed mail given up before $before; returns how many.
   *
   * A mail refused for good failed at its last try; one given up after its
   * lifetime, when that lifetime ended.
   */
  public function purgeFailed(int $before): int {
    $refused_then = $this->database->condition('AND')
      ->condition('failure', OutboxItem::FAILURE_REFUSED)
      ->condition('last_try', $before, '<');
    $expired_then = $this->database->condition('AND')
      ->condition('failure', OutboxItem::FAILURE_REFUSED, '<>')
      ->condition('expires', $before, '<');
    return (int) $this->database->delete(self::TABLE)
      ->condition('state', OutboxItem::FAILED)
      ->condition($this->database->condition('OR')->condition($refused_then)->condition($expired_then))
      ->execute();
  }

  /**
   * Puts a claimed mail back to wait until $next_try.
   */
  public function retryLater(OutboxItem $item, int $tries, int $next_try, ApiResult $result): void {
    $this->recordTry($item, [
      'tries' => $tries,
      'next_try' => $next_try,
    ], $result->status, $result->logSummary());
  }

  /**
   * Gives a mail up: it stays, shown as failed, until the owner acts on it.
   *
   * @param \Drupal\sitebeam\Outbox\OutboxItem $item
   *   The mail.
   * @param string $failure
   *   OutboxItem::FAILURE_REFUSED or OutboxItem::FAILURE_EXPIRED.
   * @param string $error
   *   Why, in words.
   * @param \Drupal\sitebeam\Api\ApiResult|null $result
   *   The answer of the try that was refused; NULL when no try was made.
   */
  public function markFailed(OutboxItem $item, string $failure, string $error, ?ApiResult $result = NULL): void {
    $fields = [
      'state' => OutboxItem::FAILED,
      'failure' => $failure,
      'tries' => $item->tries + ($result === NULL ? 0 : 1),
    ];
    if ($result === NULL) {
      $this->database->update(self::TABLE)->fields($fields + [
        'last_error' => mb_substr($error, 0, 1000),
        'claimed_until' => 0,
      ])->condition('id', $item->id)->execute();
      return;
    }
    $this->recordTry($item, $fields, $result->status, $error);
  }

  /**
   * Writes a try's outcome: its fields, the error and the history.
   */
  protected function recordTry(OutboxItem $item, array $fields, int $status, string $error): void {
    $now = $this->time->getCurrentTime();
    $this->database->update(self::TABLE)->fields($fields + [
      'last_error' => mb_substr($error, 0, 1000),
      'last_try' => $now,
      'history' => OutboxItem::historyWith($item->history, $now, $status, $error),
      'claimed_until' => 0,
    ])->condition('id', $item->id)->execute();
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
      $fields += ['state' => OutboxItem::WAITING, 'failure' => '', 'expires' => $now + $this->lifetime()];
    }
    $this->database->update(self::TABLE)->fields($fields)->condition('id', $id)->execute();
  }

  /**
   * Makes every waiting mail due now; returns how many were waiting for later.
   *
   * Failed mail stays failed: each waits for the owner's Send now.
   */
  public function makeAllDue(): int {
    $now = $this->time->getCurrentTime();
    return (int) $this->database->update(self::TABLE)
      ->fields(['next_try' => $now])
      ->condition('state', OutboxItem::WAITING)
      ->condition('next_try', $now, '>')
      ->execute();
  }

  /**
   * TRUE when the table is there (update 10008 has run).
   */
  public function exists(): bool {
    return $this->database->schema()->tableExists(self::TABLE);
  }

  /**
   * How many mails and bytes the outbox holds, of one kind or all.
   *
   * @return int[]
   *   [mails, bytes].
   */
  public function size(?string $kind = NULL): array {
    $query = $this->database->select(self::TABLE, 'o');
    $query->addExpression('COUNT(*)', 'mails');
    $query->addExpression('COALESCE(SUM(bytes), 0)', 'bytes');
    if ($kind !== NULL) {
      $query->condition('kind', $kind);
    }
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
   * A select of every column but the payload.
   */
  protected function select(): SelectInterface {
    return $this->database->select(self::TABLE, 'o')->fields('o', [
      'id', 'recipient', 'subject', 'mail_id', 'created', 'next_try', 'expires',
      'tries', 'state', 'last_error', 'bytes', 'kind', 'failure', 'last_try',
      'history', 'attachment', 'visitor',
    ]);
  }

}
