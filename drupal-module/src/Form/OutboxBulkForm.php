<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\OutboxReport\OutboxActions;
use Drupal\sitebeam\OutboxReport\OutboxListing;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;

/**
 * Asks before acting on many mails at once.
 *
 * Retry all, Delete all not delivered, Delete all contact messages.
 */
class OutboxBulkForm extends OutboxConfirmFormBase {

  public const RETRY = 'retry';
  public const DELETE_FAILED = 'delete-failed';
  public const DELETE_CONTACT = 'delete-contact';

  /**
   * The action asked for: one of the constants.
   */
  protected string $action;

  /**
   * How many mails it concerns, counted as the form was built.
   */
  protected int $count;

  public function __construct(
    protected OutboxListing $listing,
    protected OutboxActions $actions,
  ) {}

  /**
   * {@inheritdoc}
   */
  public function getFormId(): string {
    return 'sitebeam_outbox_bulk';
  }

  /**
   * {@inheritdoc}
   */
  public function buildForm(array $form, FormStateInterface $form_state, ?string $action = NULL): array {
    $counts = $this->listing->counts();
    $this->action = (string) $action;
    $this->count = match ($this->action) {
      self::RETRY => $counts[OutboxItem::WAITING],
      self::DELETE_FAILED => $counts[OutboxItem::FAILED],
      self::DELETE_CONTACT => $counts[OutboxItem::KIND_CONTACT],
      default => throw new NotFoundHttpException(),
    };
    $form = parent::buildForm($form, $form_state);
    if ($this->action !== self::RETRY) {
      $form['actions']['submit']['#button_type'] = 'danger';
    }
    if ($this->count === 0) {
      $form['description']['#markup'] = $this->t('There is nothing to do: no mail of that kind is in the outbox.');
      unset($form['actions']['submit']);
      $form['actions']['cancel']['#title'] = $this->t('Back to the outbox');
    }
    return $form;
  }

  /**
   * {@inheritdoc}
   */
  public function getQuestion(): TranslatableMarkup {
    return match ($this->action) {
      self::RETRY => $this->formatPlural($this->count, 'Try the waiting mail again now?', 'Try the @count waiting mails again now?'),
      self::DELETE_FAILED => $this->formatPlural($this->count, 'Delete the mail that was not delivered?', 'Delete the @count mails that were not delivered?'),
      self::DELETE_CONTACT => $this->formatPlural($this->count, 'Delete the contact message in the outbox?', 'Delete the @count contact messages in the outbox?'),
    };
  }

  /**
   * {@inheritdoc}
   */
  public function getDescription(): TranslatableMarkup {
    return match ($this->action) {
      self::RETRY => $this->t('Each waiting mail becomes due now, whatever its next try, and goes out at the next run of the outbox. A mail that fails again waits for its next try.'),
      self::DELETE_FAILED => $this->formatPlural($this->count,
        'The instance refused it for good, or it was given up. Deleted, it is never sent. This cannot be undone; the deletion is logged.',
        'The instance refused them for good, or they were given up. Deleted, they are never sent. This cannot be undone; the deletion is logged.'),
      self::DELETE_CONTACT => $this->formatPlural($this->count,
        'A message a visitor sent through the contact form, waiting or not delivered. Deleted, it never reaches you. This cannot be undone; the deletion is logged.',
        'Messages visitors sent through the contact form, waiting or not delivered. Deleted, they never reach you. This cannot be undone; the deletion is logged.'),
    };
  }

  /**
   * {@inheritdoc}
   */
  public function getConfirmText(): TranslatableMarkup {
    return $this->action === self::RETRY
      ? $this->t('Retry all')
      : $this->formatPlural($this->count, 'Delete 1 mail', 'Delete @count mails');
  }

  /**
   * {@inheritdoc}
   */
  protected function confirmed(): void {
    match ($this->action) {
      self::RETRY => $this->actions->retryAll(),
      self::DELETE_FAILED => $this->actions->deleteAll(OutboxItem::FAILED, NULL),
      self::DELETE_CONTACT => $this->actions->deleteAll(NULL, OutboxItem::KIND_CONTACT),
    };
  }

}
