<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;

/**
 * Asks before one mail of the outbox is deleted, never sent.
 */
class OutboxDeleteForm extends OutboxItemConfirmFormBase {

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
    $form = parent::buildForm($form, $form_state, $id);
    $form['actions']['submit']['#button_type'] = 'danger';
    return $form;
  }

  /**
   * {@inheritdoc}
   */
  public function getQuestion(): TranslatableMarkup {
    return $this->t('Delete the mail to %to (%subject)?', $this->mailPlaceholders());
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
  protected function confirmed(): void {
    $this->actions->delete($this->item->id);
  }

}
