<?php

declare(strict_types=1);

namespace Drupal\sitebeam_test\EngineStandIn;

use Drupal\Core\Database\Connection;
use Drupal\sitebeam\Outbox\Outbox;

/**
 * TEST-ONLY STAND-IN, to delete at the merge of the engine (issue #35).
 *
 * The outbox columns OUTBOX-INTERFACE.md names, which the engine adds in its
 * update 10009 and sitebeam_schema(); the screens (issue #36) read them.
 * Adds only those missing, so it does nothing once the engine is merged.
 */
final class OutboxColumns {

  /**
   * The engine's new columns, as the interface describes them.
   */
  private const COLUMNS = [
    'kind' => ['type' => 'varchar_ascii', 'length' => 16, 'not null' => TRUE, 'default' => 'site'],
    'failure' => ['type' => 'varchar_ascii', 'length' => 16, 'not null' => TRUE, 'default' => ''],
    'last_try' => ['type' => 'int', 'not null' => TRUE, 'default' => 0],
    'history' => ['type' => 'text', 'not null' => FALSE],
    'attachment' => ['type' => 'varchar', 'length' => 255, 'not null' => TRUE, 'default' => ''],
    'visitor' => ['type' => 'varchar', 'length' => 254, 'not null' => TRUE, 'default' => ''],
  ];

  /**
   * Adds the columns the outbox table lacks.
   */
  public static function add(Connection $database): void {
    $schema = $database->schema();
    foreach (self::COLUMNS as $name => $spec) {
      if ($schema->tableExists(Outbox::TABLE) && !$schema->fieldExists(Outbox::TABLE, $name)) {
        $schema->addField(Outbox::TABLE, $name, $spec);
      }
    }
  }

}
