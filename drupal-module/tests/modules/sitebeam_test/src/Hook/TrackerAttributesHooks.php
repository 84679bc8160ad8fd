<?php

declare(strict_types=1);

namespace Drupal\sitebeam_test\Hook;

use Drupal\Core\Hook\Attribute\Hook;

/**
 * The snippet skips localhost and automated browsers unless told otherwise.
 */
class TrackerAttributesHooks {

  /**
   * Implements hook_sitebeam_tracker_attributes_alter().
   */
  #[Hook('sitebeam_tracker_attributes_alter')]
  public function trackerAttributesAlter(array &$attributes): void {
    $attributes['data-track-localhost'] = 'true';
    $attributes['data-track-automation'] = 'true';
  }

}
