<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\DependencyInjection\AutowireTrait;
use Drupal\Core\Form\ConfirmFormBase;
use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\Url;

/**
 * Asks before an action on the outbox, then goes back to the outbox.
 */
abstract class OutboxConfirmFormBase extends ConfirmFormBase {

  use AutowireTrait;

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
    $this->confirmed();
    $form_state->setRedirectUrl($this->getCancelUrl());
  }

  /**
   * Does what the owner confirmed.
   */
  abstract protected function confirmed(): void;

}
