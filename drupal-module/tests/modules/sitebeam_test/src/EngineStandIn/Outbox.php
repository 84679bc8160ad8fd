<?php

declare(strict_types=1);

namespace Drupal\sitebeam_test\EngineStandIn;

use Drupal\sitebeam\Outbox\Outbox as EngineOutbox;
use Drupal\sitebeam\Outbox\OutboxItem;

/**
 * TEST-ONLY STAND-IN, to delete at the merge of the engine (issue #35).
 *
 * The bulk methods OUTBOX-INTERFACE.md gives the engine's Outbox, for the
 * screens' tests (issue #36) before the engine's branch is merged.
 * SitebeamTestServiceProvider uses this class only while the engine's
 * Outbox lacks them.
 */
class Outbox extends EngineOutbox {

  /**
   * Deletes these rows; how many there were.
   */
  public function deleteMany(array $ids): int {
    return $ids === [] ? 0 : (int) $this->database->delete(self::TABLE)->condition('id', $ids, 'IN')->execute();
  }

  /**
   * Deletes every row in a state and of a kind (NULL: any).
   */
  public function deleteAll(?string $state = NULL, ?string $kind = NULL): int {
    $delete = $this->database->delete(self::TABLE);
    if ($state !== NULL) {
      $delete->condition('state', $state);
    }
    if ($kind !== NULL) {
      $delete->condition('kind', $kind);
    }
    return (int) $delete->execute();
  }

  /**
   * Makes every waiting row due now.
   */
  public function makeAllDue(): int {
    return (int) $this->database->update(self::TABLE)
      ->fields(['next_try' => $this->time->getCurrentTime()])
      ->condition('state', OutboxItem::WAITING)
      ->execute();
  }

}
