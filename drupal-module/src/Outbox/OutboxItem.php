<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

/**
 * One mail of the outbox: a /v1/email payload as first written, and its tries.
 */
final class OutboxItem {

  public const WAITING = 'waiting';
  public const FAILED = 'failed';

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
  ) {}

  /**
   * The item of a row of Outbox::TABLE (the payload left out).
   */
  public static function fromRow(object $row): self {
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
    );
  }

}
