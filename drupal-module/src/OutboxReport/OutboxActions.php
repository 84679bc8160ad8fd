<?php

declare(strict_types=1);

namespace Drupal\sitebeam\OutboxReport;

use Drupal\Core\Messenger\MessengerInterface;
use Drupal\Core\Session\AccountInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\Outbox\OutboxSender;
use Psr\Log\LoggerInterface;

/**
 * The owner's actions on the outbox, each told in words and deletions logged.
 *
 * Shared by the report's links and its confirm forms: Send now says what came
 * of that one mail, or why nothing was sent; every deletion leaves a line in
 * the sitebeam log naming who deleted what.
 */
class OutboxActions {

  use StringTranslationTrait;

  public function __construct(
    protected Outbox $outbox,
    protected OutboxSender $sender,
    protected ErrorInWords $errorInWords,
    protected MessengerInterface $messenger,
    protected LoggerInterface $logger,
    protected AccountInterface $currentUser,
    TranslationInterface $string_translation,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * Sends one mail now, whatever else waits, and says what came of it.
   *
   * @param int $id
   *   The row.
   * @param bool $again_after_refusal
   *   TRUE once the owner confirmed sending a mail the instance refused for
   *   good.
   *
   * @return \Drupal\Core\Url|null
   *   The confirm form to go to when the instance refused the mail for good
   *   and the owner has not confirmed; NULL otherwise.
   */
  public function sendNow(int $id, bool $again_after_refusal = FALSE): ?Url {
    $item = $this->outbox->get($id);
    if ($item === NULL) {
      $this->messenger->addWarning($this->t('That mail is no longer in the outbox: it was delivered or deleted meanwhile.'));
      return NULL;
    }
    $outcome = $this->sender->sendNow($id, $again_after_refusal)['outcome'];
    $args = ['%to' => $item->recipient, '%subject' => $item->subject];
    // The error this try left on the row, in words rather than the engine's
    // raw detail (kept as markup: a placeholder escapes it once).
    $reason = fn (): TranslatableMarkup => $this->errorInWords->describe($this->outbox->get($id)?->lastError ?? $item->lastError);
    switch ($outcome) {
      case 'delivered':
        $this->messenger->addStatus($this->t('The mail to %to (%subject) was delivered.', $args));
        return NULL;

      case 'waiting':
        $this->messenger->addError($this->t('The mail to %to (%subject) was not delivered: @reason. It waits for its next try.', $args + ['@reason' => $reason()]));
        return NULL;

      case 'failed':
        $this->messenger->addError($this->t('The mail to %to (%subject) was not delivered: @reason. It is kept as not delivered: send it again once the cause is corrected, or delete it.', $args + ['@reason' => $reason()]));
        return NULL;

      case 'needs_confirmation':
        return Url::fromRoute('sitebeam.outbox_send_again', ['id' => $id]);

      case 'gone':
        $this->messenger->addWarning($this->t('That mail is no longer in the outbox: it was delivered or deleted meanwhile.'));
        return NULL;

      default:
        $this->messenger->addWarning($this->t('The mail to %to (%subject) is being sent by another run right now: nothing was sent twice. Look again in a minute.', $args));
        return NULL;
    }
  }

  /**
   * Deletes one mail for good, logged.
   */
  public function delete(int $id): bool {
    $item = $this->outbox->get($id);
    if ($item === NULL || !$this->outbox->delete($id)) {
      $this->messenger->addWarning($this->t('That mail is no longer in the outbox: it was delivered or deleted meanwhile.'));
      return FALSE;
    }
    $this->logger->notice('Mail @id to @to (@subject) deleted from the outbox by @user, never sent.', [
      '@id' => $item->mailId,
      '@to' => $item->recipient,
      '@subject' => $item->subject,
      '@user' => $this->currentUser->getAccountName(),
    ]);
    $this->messenger->addStatus($this->t('The mail to %to (%subject) was deleted; it will not be sent.', [
      '%to' => $item->recipient,
      '%subject' => $item->subject,
    ]));
    return TRUE;
  }

  /**
   * Deletes every mail not delivered, or every contact message, logged.
   *
   * @param string|null $state
   *   OutboxItem::FAILED, or NULL for every state.
   * @param string|null $kind
   *   OutboxItem::KIND_CONTACT, or NULL for every kind.
   */
  public function deleteAll(?string $state, ?string $kind): int {
    $deleted = $this->outbox->deleteAll($state, $kind);
    $what = $kind === OutboxItem::KIND_CONTACT ? 'contact messages' : ($state === OutboxItem::FAILED ? 'mails not delivered' : 'mails');
    $this->logger->notice('@count @what deleted from the outbox by @user, never sent.', [
      '@count' => $deleted,
      '@what' => $what,
      '@user' => $this->currentUser->getAccountName(),
    ]);
    $this->messenger->addStatus($this->formatPlural($deleted, '1 mail was deleted; it will not be sent.', '@count mails were deleted; they will not be sent.'));
    return $deleted;
  }

  /**
   * Makes every waiting mail due now.
   */
  public function retryAll(): int {
    $due = $this->outbox->makeAllDue();
    $this->messenger->addStatus($this->formatPlural($due, '1 mail is due now: it goes out at the next run of the outbox, at the latest with the next cron run.', '@count mails are due now: they go out at the next run of the outbox, at the latest with the next cron run.'));
    return $due;
  }

}
