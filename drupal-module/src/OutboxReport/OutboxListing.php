<?php

declare(strict_types=1);

namespace Drupal\sitebeam\OutboxReport;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Database\Connection;
use Drupal\Core\Database\Query\PagerSelectExtender;
use Drupal\Core\Database\Query\SelectInterface;
use Drupal\Core\Database\Query\TableSortExtender;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;

/**
 * What the outbox's screens read: pages of rows, counts, one mail whole.
 *
 * Rows are the table's columns as Drupal's database layer gives them (as
 * dblog's report reads its table), the payload left out of lists.
 */
class OutboxListing {

  /**
   * Rows per page, as WordPress lists: short enough for a phone.
   */
  public const PER_PAGE = 20;

  /**
   * The filter's query parameter and its values (none: every mail).
   */
  public const FILTER = 'state';
  public const FILTERS = [OutboxItem::WAITING, OutboxItem::FAILED];

  /**
   * Every column a list shows: all but the payload.
   */
  private const COLUMNS = [
    'id', 'recipient', 'subject', 'mail_id', 'created', 'next_try', 'expires',
    'tries', 'state', 'last_error', 'bytes', 'claimed_until', 'kind',
    'failure', 'last_try', 'history', 'attachment',
  ];

  public function __construct(
    protected Connection $database,
    protected TimeInterface $time,
  ) {}

  /**
   * One page of mails in the state asked for, sorted by the table's header.
   *
   * The page and sort come from the current request (?page=, ?order=,
   * ?sort=), as PagerSelectExtender and TableSortExtender read them; the
   * pager manager then knows the total for the pager and "1–50 of 508".
   *
   * @param string|null $state
   *   One of self::FILTERS, or NULL for every mail.
   * @param array $header
   *   The table header, its sortable cells naming a 'field' of the table.
   *
   * @return object[]
   *   The rows, without their payload.
   */
  public function page(?string $state, array $header): array {
    $query = $this->select()->extend(PagerSelectExtender::class)->extend(TableSortExtender::class);
    // The report's one pager: ?page=N, and the pager manager's element 0
    // tells the total.
    $query->limit(self::PER_PAGE)->element(0)->orderByHeader($header);
    // Rows queued in the same second keep the order they were accepted in.
    $query->orderBy('o.id');
    if ($state !== NULL) {
      $query->condition('o.state', $state);
    }
    return $query->execute()->fetchAll();
  }

  /**
   * How many mails each filter holds, the failed ones by cause, the contact.
   *
   * @return array<string, int>
   *   Counts keyed 'all', 'waiting', 'failed'; 'refused' and 'expired' (the
   *   failed ones the instance refused for good, or that were given up);
   *   'contact' (the contact form's messages, in any state).
   */
  public function counts(): array {
    $query = $this->database->select(Outbox::TABLE, 'o')->fields('o', ['state', 'failure', 'kind']);
    $query->addExpression('COUNT(*)', 'mails');
    $query->groupBy('o.state')->groupBy('o.failure')->groupBy('o.kind');
    $keys = [
      'all',
      OutboxItem::WAITING,
      OutboxItem::FAILED,
      OutboxItem::FAILURE_REFUSED,
      OutboxItem::FAILURE_EXPIRED,
      OutboxItem::KIND_CONTACT,
    ];
    $counts = array_fill_keys($keys, 0);
    foreach ($query->execute() as $group) {
      $mails = (int) $group->mails;
      $counts['all'] += $mails;
      $counts[$group->state] = ($counts[$group->state] ?? 0) + $mails;
      if ($group->state === OutboxItem::FAILED && isset($counts[$group->failure])) {
        $counts[$group->failure] += $mails;
      }
      if ($group->kind === OutboxItem::KIND_CONTACT) {
        $counts[OutboxItem::KIND_CONTACT] += $mails;
      }
    }
    return $counts;
  }

  /**
   * One mail with its payload decoded, or NULL when it is gone.
   *
   * @return object|null
   *   The row; its 'payload' the /v1/email payload (an empty array when it
   *   cannot be read) and 'history' the list of tries.
   */
  public function mail(int $id): ?object {
    $row = $this->select()->fields('o', ['payload'])->condition('o.id', $id)->execute()->fetchObject();
    if (!$row) {
      return NULL;
    }
    $payload = json_decode((string) $row->payload, TRUE);
    $row->payload = is_array($payload) ? $payload : [];
    return $row;
  }

  /**
   * The tries of a row, oldest first: each with 'at', 'status' and 'error'.
   *
   * @return array<int, array{at: int, status: int, error: string}>
   *   The tries the history column holds; entries of another shape left out.
   */
  public static function history(object $row): array {
    $history = json_decode((string) ($row->history ?? ''), TRUE);
    $tries = [];
    foreach (is_array($history) ? $history : [] as $try) {
      if (is_array($try) && is_numeric($try['at'] ?? NULL)) {
        $tries[] = [
          'at' => (int) $try['at'],
          'status' => is_numeric($try['status'] ?? NULL) ? (int) $try['status'] : 0,
          'error' => is_string($try['error'] ?? NULL) ? $try['error'] : '',
        ];
      }
    }
    return $tries;
  }

  /**
   * When the next waiting mail is due, or NULL when none waits.
   */
  public function nextTry(): ?int {
    $query = $this->database->select(Outbox::TABLE, 'o')->condition('state', OutboxItem::WAITING);
    $query->addExpression('MIN(next_try)', 'next_try');
    $next = $query->execute()->fetchField();
    return is_numeric($next) ? (int) $next : NULL;
  }

  /**
   * The id of the waiting mail that is due first, or NULL when none waits.
   */
  public function firstWaiting(): ?int {
    $id = $this->database->select(Outbox::TABLE, 'o')
      ->fields('o', ['id'])
      ->condition('state', OutboxItem::WAITING)
      ->orderBy('next_try')
      ->orderBy('id')
      ->range(0, 1)
      ->execute()
      ->fetchField();
    return $id === FALSE ? NULL : (int) $id;
  }

  /**
   * The failed mails at a glance: since when, and the latest one's cause.
   *
   * @return array{since: int, latest: object}|null
   *   When the first of them failed (its last try, or when it was queued if
   *   it was never tried) and the row that failed last; NULL when none has.
   */
  public function failures(): ?array {
    $failed = $this->select()->condition('o.state', OutboxItem::FAILED);
    $failed->addExpression('CASE WHEN [o].[last_try] > 0 THEN [o].[last_try] ELSE [o].[created] END', 'failed_at');
    $first = (clone $failed)->orderBy('failed_at')->orderBy('o.id')->range(0, 1)->execute()->fetchObject();
    if (!$first) {
      return NULL;
    }
    $latest = $failed->orderBy('failed_at', 'DESC')->orderBy('o.id', 'DESC')->range(0, 1)->execute()->fetchObject();
    return ['since' => (int) $first->failed_at, 'latest' => $latest];
  }

  /**
   * Whether a sender holds the row right now.
   */
  public function isBeingSent(object $row): bool {
    return $row->state === OutboxItem::WAITING && (int) $row->claimed_until > $this->time->getCurrentTime();
  }

  /**
   * A select of the listed columns.
   */
  protected function select(): SelectInterface {
    return $this->database->select(Outbox::TABLE, 'o')->fields('o', self::COLUMNS);
  }

}
