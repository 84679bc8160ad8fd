<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel\Doubles;

/**
 * The last send's outcome a test sets: the engine's DeliveryState::get().
 *
 * The screens read only get() (OUTBOX-INTERFACE.md); a test states each
 * outcome it shows without sending.
 */
final class FixedDeliveryState {

  /**
   * What get() answers: DeliveryState's keys.
   */
  public array $state = [
    'failing_since' => NULL,
    'last_error' => '',
    'last_status' => 0,
    'last_success' => NULL,
    'breaker_until' => 0,
  ];

  /**
   * The last send's outcome.
   */
  public function get(): array {
    return $this->state;
  }

}
