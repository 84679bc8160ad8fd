<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Hook\Attribute\Hook;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxSender;

/**
 * The outbox's cron delivery.
 */
class OutboxHooks {

  use StringTranslationTrait;

  public function __construct(
    protected OutboxSender $sender,
    protected Outbox $outbox,
    protected TimeInterface $time,
    TranslationInterface $string_translation,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * Implements hook_cron().
   */
  #[Hook('cron')]
  public function cron(): void {
    if ($this->outbox->exists()) {
      $this->sender->deliverDue();
    }
  }

}
