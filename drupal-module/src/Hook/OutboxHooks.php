<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Database\DatabaseException;
use Drupal\Core\Hook\Attribute\Hook;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxSender;
use Psr\Log\LoggerInterface;

/**
 * The outbox's cron delivery and its line on the status report.
 */
class OutboxHooks {

  use StringTranslationTrait;

  /**
   * Mail waiting longer than this is a warning on the status report.
   */
  public const LATE_S = 3600;

  public function __construct(
    protected OutboxSender $sender,
    protected Outbox $outbox,
    protected TimeInterface $time,
    TranslationInterface $string_translation,
    protected LoggerInterface $logger,
  ) {
    $this->stringTranslation = $string_translation;
  }

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
        $this->logger->notice('@count failed mails older than @days days deleted from the outbox.', ['@count' => $purged, '@days' => $this->outbox->retentionDays()]);
      }
    }
    catch (DatabaseException $e) {
      $this->logger->error('The outbox could not be sent: @reason. Run update.php if the module was just updated.', ['@reason' => $e->getMessage()]);
    }
  }

  /**
   * The status report's outbox line (hook_requirements(), runtime phase).
   */
  public function runtimeRequirements(): array {
    // Before update 10008 has run, there is no outbox yet.
    if (!$this->outbox->exists()) {
      return [];
    }
    [$mails] = $this->outbox->size();
    if ($mails === 0) {
      return [];
    }
    $oldest = $this->outbox->oldestWaiting();
    $failed = $this->outbox->failedCount();
    $late = $oldest !== NULL && $this->time->getCurrentTime() - $oldest > self::LATE_S;
    $requirement = [
      'title' => $this->t('Sitebeam outbox'),
      'value' => $this->formatPlural($mails, '1 mail in the outbox', '@count mails in the outbox'),
      'description' => $this->t('<a href=":url">The outbox</a> lists each mail with its last error.', [':url' => Url::fromRoute('sitebeam.outbox')->toString()]),
      'severity' => REQUIREMENT_OK,
    ];
    if ($late) {
      $requirement['description'] = $this->t('Mail has waited more than an hour for the Sitebeam instance: the oldest since @time. Check the instance and that cron runs; <a href=":url">the outbox</a> shows the last error of each mail.', [
        '@time' => gmdate('Y-m-d H:i', $oldest) . ' UTC',
        ':url' => Url::fromRoute('sitebeam.outbox')->toString(),
      ]);
      $requirement['severity'] = REQUIREMENT_WARNING;
    }
    if ($failed > 0) {
      $requirement['description'] = $this->formatPlural($failed, '1 mail was given up: <a href=":url">the outbox</a> says why, and can send it again.', '@count mails were given up: <a href=":url">the outbox</a> says why, and can send them again.', [':url' => Url::fromRoute('sitebeam.outbox')->toString()]);
      $requirement['severity'] = REQUIREMENT_WARNING;
    }
    return ['sitebeam_outbox' => $requirement];
  }

}
