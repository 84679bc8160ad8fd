<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

/**
 * One mail of the outbox: a /v1/email payload as first written, and its tries.
 */
final class OutboxItem {

  public const WAITING = 'waiting';
  public const FAILED = 'failed';

  /**
   * The site's own mail, through Drupal's mail system.
   */
  public const KIND_SITE = 'site';

  /**
   * A visitor's message from the contact form.
   */
  public const KIND_CONTACT = 'contact';

  /**
   * A failed mail the instance refused for good (or that cannot be read).
   */
  public const FAILURE_REFUSED = 'refused';

  /**
   * A failed mail given up after its lifetime.
   */
  public const FAILURE_EXPIRED = 'expired';

  /**
   * Tries the history keeps, the latest ones.
   */
  public const HISTORY_TRIES = 20;

  /**
   * Constructs an item: a row of Outbox::TABLE, its payload left out.
   *
   * The history holds the last tries, oldest first, each
   * array{at: int, status: int, error: string}: when, the HTTP status (0: no
   * answer) and the error in words.
   */
  public function __construct(
    public readonly int $id,
    public readonly string $recipient,
    public readonly string $subject,
    public readonly string $mailId,
    public readonly int $created,
    public readonly int $nextTry,
    public readonly int $expires,
    public readonly int $tries,
    public readonly string $state,
    public readonly string $lastError,
    public readonly int $bytes,
    public readonly string $kind = self::KIND_SITE,
    public readonly string $failure = '',
    public readonly int $lastTry = 0,
    public readonly array $history = [],
    public readonly string $attachment = '',
    public readonly string $visitor = '',
  ) {}

  /**
   * The item of a row of Outbox::TABLE (the payload left out).
   */
  public static function fromRow(object $row): self {
    $history = json_decode((string) ($row->history ?? ''), TRUE);
    return new self(
      (int) $row->id,
      (string) $row->recipient,
      (string) $row->subject,
      (string) $row->mail_id,
      (int) $row->created,
      (int) $row->next_try,
      (int) $row->expires,
      (int) $row->tries,
      (string) $row->state,
      (string) $row->last_error,
      (int) $row->bytes,
      (string) ($row->kind ?? self::KIND_SITE),
      (string) ($row->failure ?? ''),
      (int) ($row->last_try ?? 0),
      is_array($history) ? $history : [],
      (string) ($row->attachment ?? ''),
      (string) ($row->visitor ?? ''),
    );
  }

  /**
   * The history with one more try, at most HISTORY_TRIES long, as stored.
   */
  public static function historyWith(array $history, int $at, int $status, string $error): string {
    $history[] = ['at' => $at, 'status' => $status, 'error' => mb_substr($error, 0, 500)];
    return json_encode(array_slice($history, -self::HISTORY_TRIES), JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
  }

}
