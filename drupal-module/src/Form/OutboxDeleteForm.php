<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Form\ConfirmFormBase;
use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\OutboxReport\OutboxActions;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;

/**
 * Asks before one mail of the outbox is deleted, never sent.
 */
class OutboxDeleteForm extends ConfirmFormBase {

  /**
   * The mail to delete.
   */
  protected OutboxItem $item;

  public function __construct(
    protected Outbox $outbox,
    protected OutboxActions $actions,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container): static {
    return new static($container->get('sitebeam.outbox'), $container->get('sitebeam.outbox_actions'));
  }

  /**
   * {@inheritdoc}
   */
  public function getFormId(): string {
    return 'sitebeam_outbox_delete';
  }

  /**
   * {@inheritdoc}
   */
  public function buildForm(array $form, FormStateInterface $form_state, ?int $id = NULL): array {
    $this->item = $this->outbox->get((int) $id) ?? throw new NotFoundHttpException();
    $form = parent::buildForm($form, $form_state);
    $form['actions']['submit']['#button_type'] = 'danger';
    return $form;
  }

  /**
   * {@inheritdoc}
   */
  public function getQuestion(): TranslatableMarkup {
    return $this->t('Delete the mail to %to (%subject)?', [
      '%to' => $this->item->recipient,
      '%subject' => $this->item->subject,
    ]);
  }

  /**
   * {@inheritdoc}
   */
  public function getDescription(): TranslatableMarkup {
    return $this->t('It will never be sent. This cannot be undone; the deletion is logged.');
  }

  /**
   * {@inheritdoc}
   */
  public function getConfirmText(): TranslatableMarkup {
    return $this->t('Delete');
  }

  /**
   * {@inheritdoc}
   */
  public function getCancelUrl(): Url {
    return Url::fromRoute('sitebeam.outbox');
  }

  /**
   * {@inheritdoc}
   */
  public function submitForm(array &$form, FormStateInterface $form_state): void {
    $this->actions->delete($this->item->id);
    $form_state->setRedirectUrl($this->getCancelUrl());
  }

}
