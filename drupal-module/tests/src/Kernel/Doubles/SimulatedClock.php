<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel\Doubles;

use Drupal\Component\Datetime\TimeInterface;

/**
 * A clock a test sets: real time until it does.
 */
final class SimulatedClock implements TimeInterface {

  /**
   * The simulated time, or NULL for the real one.
   */
  public ?int $now = NULL;

  /**
   * {@inheritdoc}
   */
  public function getRequestTime() {
    return $this->now ?? time();
  }

  /**
   * {@inheritdoc}
   */
  public function getRequestMicroTime() {
    return (float) $this->getRequestTime();
  }

  /**
   * {@inheritdoc}
   */
  public function getCurrentTime() {
    return $this->getRequestTime();
  }

  /**
   * {@inheritdoc}
   */
  public function getCurrentMicroTime() {
    return (float) $this->getRequestTime();
  }

}
