<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Form\ConfirmFormBase;
use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\OutboxReport\ErrorInWords;
use Drupal\sitebeam\OutboxReport\OutboxActions;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;

/**
 * Sends a mail the instance refused for good again, once the owner agrees.
 *
 * The question names the refusal: sent unchanged, the mail is refused the
 * same way unless its cause was corrected on the instance.
 */
class OutboxSendAgainForm extends ConfirmFormBase {

  /**
   * The mail to send again.
   */
  protected OutboxItem $item;

  public function __construct(
    protected Outbox $outbox,
    protected OutboxActions $actions,
    protected ErrorInWords $errorInWords,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container): static {
    return new static(
      $container->get('sitebeam.outbox'),
      $container->get('sitebeam.outbox_actions'),
      $container->get('sitebeam.error_in_words'),
    );
  }

  /**
   * {@inheritdoc}
   */
  public function getFormId(): string {
    return 'sitebeam_outbox_send_again';
  }

  /**
   * {@inheritdoc}
   */
  public function buildForm(array $form, FormStateInterface $form_state, ?int $id = NULL): array {
    $this->item = $this->outbox->get((int) $id) ?? throw new NotFoundHttpException();
    return parent::buildForm($form, $form_state);
  }

  /**
   * {@inheritdoc}
   */
  public function getQuestion(): TranslatableMarkup {
    return $this->t('Send the mail to %to (%subject) again?', [
      '%to' => $this->item->recipient,
      '%subject' => $this->item->subject,
    ]);
  }

  /**
   * {@inheritdoc}
   */
  public function getDescription(): TranslatableMarkup {
    return $this->t('The instance refused this mail for good: @reason. Sent again unchanged, it is refused the same way, unless the cause was corrected on the instance (the account, its limits, the sender address).', [
      '@reason' => $this->errorInWords->describe($this->item->lastError),
    ]);
  }

  /**
   * {@inheritdoc}
   */
  public function getConfirmText(): TranslatableMarkup {
    return $this->t('Send again');
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
    $this->actions->sendNow($this->item->id, TRUE);
    $form_state->setRedirectUrl($this->getCancelUrl());
  }

}
