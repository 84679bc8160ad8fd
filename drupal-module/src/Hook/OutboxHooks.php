<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Database\DatabaseException;
use Drupal\Core\Hook\Attribute\Hook;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxSender;
use Psr\Log\LoggerInterface;

/**
 * The outbox's cron delivery.
 */
class OutboxHooks {

  public function __construct(
    protected OutboxSender $sender,
    protected Outbox $outbox,
    protected TimeInterface $time,
    protected LoggerInterface $logger,
  ) {}

  /**
   * Implements hook_cron().
   *
   * One of the outbox's two delivery paths (the other runs after responses,
   * see OutboxDelivery); then failed mail older than the retention period
   * goes.
   */
  #[Hook('cron')]
  public function cron(): void {
    try {
      $this->sender->deliverIfDue();
      $purged = $this->outbox->purgeFailed($this->time->getCurrentTime() - $this->outbox->retentionDays() * 86400);
      if ($purged > 0) {
        $this->logger->notice('@count failed mails older than @days days deleted from the outbox.', [
          '@count' => $purged,
          '@days' => $this->outbox->retentionDays(),
        ]);
      }
    }
    catch (DatabaseException $e) {
      $this->logger->error('The outbox could not be sent: @reason. Run update.php if the module was just updated.', ['@reason' => $e->getMessage()]);
    }
  }

}
