<?php

/**
 * @file
 * Test double of Drupal\Component\Render\MarkupInterface, same shape as core's.
 */

declare(strict_types=1);

namespace Drupal\Component\Render;

/**
 * Marks a string as safe HTML.
 */
interface MarkupInterface extends \JsonSerializable {

  /**
   * The markup.
   */
  public function __toString();

}
