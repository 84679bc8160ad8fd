<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

/**
 * Reads the sitebeam log channel from dblog (the test enables dblog).
 */
trait SitebeamLogTrait {

  /**
   * The sitebeam log channel's lines, placeholders filled in.
   */
  protected function sitebeamLog(): string {
    $lines = [];
    $rows = $this->container->get('database')->select('watchdog', 'w')->fields('w', ['message', 'variables'])->condition('type', 'sitebeam')->execute();
    foreach ($rows as $row) {
      $lines[] = strtr($row->message, unserialize($row->variables, ['allowed_classes' => FALSE]) ?: []);
    }
    return implode("\n", $lines);
  }

}
