<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\Controller\ControllerBase;
use Drupal\Core\Datetime\DateFormatterInterface;
use Drupal\Core\StringTranslation\ByteSizeMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\Outbox\OutboxSender;
use Psr\Log\LoggerInterface;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\RedirectResponse;

/**
 * Reports → Sitebeam outbox: waiting and failed mail, Send now and Delete.
 */
class OutboxReportController extends ControllerBase {

  public function __construct(
    protected Outbox $outbox,
    protected OutboxSender $sender,
    protected DateFormatterInterface $dateFormatter,
    protected LoggerInterface $logger,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container): static {
    return new static(
      $container->get('sitebeam.outbox'),
      $container->get('sitebeam.outbox_sender'),
      $container->get('date.formatter'),
      $container->get('logger.channel.sitebeam'),
    );
  }

  /**
   * The list, oldest first.
   */
  public function report(): array {
    [$mails, $bytes] = $this->outbox->size();
    $settings = $this->config('sitebeam.settings');
    $rows = [];
    foreach ($this->outbox->all() as $item) {
      $rows[] = [
        'data' => [
          $item->recipient,
          $item->subject,
          $item->state === OutboxItem::FAILED ? $this->t('Failed') : $this->t('Waiting'),
          $item->tries,
          $item->lastError,
          $this->nextTry($item),
          ['data' => $this->operations($item)],
        ],
        'data-sitebeam-outbox-id' => $item->id,
      ];
    }
    return [
      'summary' => [
        '#markup' => '<p>' . $this->t('Mail the Sitebeam instance could not take for a passing reason (unreachable, time-out, rate limit, server error) waits here and is sent on cron, oldest first, until it is delivered or given up after @hours hours. The outbox holds @mails of at most @max_mails mails, @size of at most @max_size.', [
          '@hours' => intdiv($this->outbox->lifetime(), 3600),
          '@mails' => $mails,
          '@max_mails' => (int) $settings->get('mail.outbox.max_mails'),
          '@size' => ByteSizeMarkup::create($bytes),
          '@max_size' => ByteSizeMarkup::create((int) $settings->get('mail.outbox.max_bytes')),
        ]) . '</p>',
      ],
      'table' => [
        '#type' => 'table',
        '#header' => [
          $this->t('Recipient'),
          $this->t('Subject'),
          $this->t('State'),
          $this->t('Tries'),
          $this->t('Last error'),
          $this->t('Next try'),
          $this->t('Operations'),
        ],
        '#rows' => $rows,
        '#empty' => $this->t('No mail is waiting: everything the site sent was delivered.'),
        '#attributes' => ['class' => ['sitebeam-outbox']],
      ],
      '#cache' => ['max-age' => 0],
    ];
  }

  /**
   * Tries one mail now, then back to the list.
   */
  public function sendNow(int $id): RedirectResponse {
    $item = $this->outbox->get($id);
    $outcome = $item === NULL ? NULL : $this->sender->sendNow($id, TRUE)['outcome'];
    $arguments = ['%to' => $item?->recipient ?? '', '%subject' => $item?->subject ?? ''];
    match ($outcome) {
      'delivered' => $this->messenger()->addStatus($this->t('The mail to %to (%subject) was delivered.', $arguments)),
      'waiting', 'failed' => $this->messenger()->addError($this->t('The mail to %to (%subject) was not delivered: @error', $arguments + ['@error' => $this->outbox->get($id)?->lastError ?? ''])),
      default => $this->messenger()->addWarning($item === NULL
        ? $this->t('That mail is no longer in the outbox.')
        : $this->t('The outbox is being sent right now; the mail to %to is part of it.', $arguments)),
    };
    return $this->redirect('sitebeam.outbox');
  }

  /**
   * Deletes one mail for good, then back to the list.
   */
  public function delete(int $id): RedirectResponse {
    $item = $this->outbox->get($id);
    if ($item !== NULL && $this->outbox->delete($id)) {
      $this->logger->notice('Mail @id to @to (@subject) deleted from the outbox by @user, never sent.', [
        '@id' => $item->mailId,
        '@to' => $item->recipient,
        '@subject' => $item->subject,
        '@user' => $this->currentUser()->getAccountName(),
      ]);
      $this->messenger()->addStatus($this->t('The mail to %to (%subject) was deleted; it will not be sent.', [
        '%to' => $item->recipient,
        '%subject' => $item->subject,
      ]));
    }
    return $this->redirect('sitebeam.outbox');
  }

  /**
   * When the mail is tried next, in the site's time zone.
   */
  protected function nextTry(OutboxItem $item): string {
    if ($item->state === OutboxItem::FAILED) {
      return (string) $this->t('Not tried again: given up');
    }
    return $this->dateFormatter->format($item->nextTry, 'short');
  }

  /**
   * Send now and Delete, each a link carrying a CSRF token.
   */
  protected function operations(OutboxItem $item): array {
    return [
      '#type' => 'operations',
      '#links' => [
        'send' => [
          'title' => $this->t('Send now'),
          'url' => Url::fromRoute('sitebeam.outbox_send', ['id' => $item->id]),
        ],
        'delete' => [
          'title' => $this->t('Delete'),
          'url' => Url::fromRoute('sitebeam.outbox_delete', ['id' => $item->id]),
        ],
      ],
    ];
  }

}
