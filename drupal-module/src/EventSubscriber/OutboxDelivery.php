<?php

declare(strict_types=1);

namespace Drupal\sitebeam\EventSubscriber;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Database\DatabaseException;
use Drupal\Core\State\StateInterface;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpKernel\KernelEvents;

/**
 * Sends the outbox's due mail after a response, as Automated Cron runs cron.
 *
 * The outbox's own delivery path, beside hook_cron: it needs neither cron
 * nor cron's lock, which a killed cron run holds for 15 minutes. It runs
 *  - after a response whose request sent mail that went through while mail
 *    was due, or that ended an outage (see OutboxSender::noteResult());
 *  - at most once per check interval otherwise, whenever due mail waits (or
 *    the instance is down and mail waits) and the circuit breaker is closed.
 */
class OutboxDelivery implements EventSubscriberInterface {

  /**
   * The state key: no request checks the outbox before this time.
   */
  public const CHECK_AFTER = 'sitebeam.outbox_check_after';

  /**
   * Constructs the subscriber.
   *
   * @param \Drupal\Core\State\StateInterface $state
   *   The state API.
   * @param \Drupal\Component\Datetime\TimeInterface $time
   *   The time.
   * @param \Closure $sender
   *   Gives the outbox sender, built only when a request needs it.
   * @param int $checkSeconds
   *   Seconds between two checks of the outbox (the container parameter
   *   sitebeam.outbox_check_s).
   */
  public function __construct(
    protected StateInterface $state,
    protected TimeInterface $time,
    protected \Closure $sender,
    protected int $checkSeconds = 30,
  ) {}

  /**
   * Whether this request asked for a run after its response.
   */
  protected bool $requested = FALSE;

  /**
   * Asks for a run after the response, whatever the check interval.
   */
  public function requestRun(): void {
    $this->requested = TRUE;
  }

  /**
   * {@inheritdoc}
   */
  public static function getSubscribedEvents(): array {
    // After Automated Cron (100): a cron run it starts may deliver first.
    return [KernelEvents::TERMINATE => [['deliver', 50]]];
  }

  /**
   * Delivers due mail after the response was sent.
   */
  public function deliver(): void {
    try {
      if (!$this->requested) {
        $now = $this->time->getCurrentTime();
        if ($now < (int) $this->state->get(self::CHECK_AFTER, 0)) {
          return;
        }
        $this->state->set(self::CHECK_AFTER, $now + $this->checkSeconds);
      }
      $this->requested = FALSE;
      /** @var \Drupal\sitebeam\Outbox\OutboxSender $sender */
      $sender = ($this->sender)();
      $sender->deliverIfDue($sender::TERMINATE_RUN_S);
    }
    catch (DatabaseException) {
      // No outbox table before update.php: the status report says so, and
      // every mail that could not be kept was logged when it was sent.
      return;
    }
  }

}
