<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Database\Connection;
use Drupal\Core\Database\IntegrityConstraintViolationException;

/**
 * How many chat messages the whole site sends to the model in a UTC day.
 *
 * The owner's spend cap, whatever the number of visitors or addresses. One
 * row per day in a table of its own, counted by a conditional UPDATE
 * ("messages + 1 where messages < limit"), as core's statistics module counts
 * views with an expression: the database checks and increments in one step
 * under its row lock, so requests arriving together never pass the limit,
 * with no lock service to wait for and on every server sharing the database.
 */
class DailyChatBudget {

  public const TABLE = 'sitebeam_chat_day';

  private const DAY_S = 86400;

  public function __construct(
    protected Connection $database,
    protected TimeInterface $time,
  ) {}

  /**
   * Counts one message of today, if today's $limit (at least 1) allows it.
   *
   * @return int|null
   *   NULL when counted; else the seconds to the next UTC day, and nothing is
   *   counted.
   */
  public function take(int $limit): ?int {
    $now = $this->time->getCurrentTime();
    $day = gmdate('Y-m-d', $now);
    if ($this->increment($day, $limit) || $this->startDay($day, $limit)) {
      return NULL;
    }
    return self::DAY_S - $now % self::DAY_S;
  }

  /**
   * Messages counted so far today (UTC).
   */
  public function today(): int {
    return (int) $this->database->select(self::TABLE, 'd')
      ->fields('d', ['messages'])
      ->condition('day', gmdate('Y-m-d', $this->time->getCurrentTime()))
      ->execute()
      ->fetchField();
  }

  /**
   * Counts a message in the day's row if the limit allows; TRUE when counted.
   */
  protected function increment(string $day, int $limit): bool {
    return $this->database->update(self::TABLE)
      ->expression('messages', 'messages + 1')
      ->condition('day', $day)
      ->condition('messages', $limit, '<')
      ->execute() > 0;
  }

  /**
   * The day's first message creates its row and forgets the earlier days.
   *
   * When the row is there already (another request started the day, or the
   * limit is reached), the message is counted in it if the limit allows.
   */
  protected function startDay(string $day, int $limit): bool {
    try {
      $this->database->insert(self::TABLE)->fields(['day' => $day, 'messages' => 1])->execute();
    }
    catch (IntegrityConstraintViolationException) {
      return $this->increment($day, $limit);
    }
    $this->database->delete(self::TABLE)->condition('day', $day, '<')->execute();
    return TRUE;
  }

}
