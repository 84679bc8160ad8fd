<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Form\FormStateInterface;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\OutboxReport\OutboxActions;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;

/**
 * Asks before an action on one mail of the outbox, named by the route's id.
 */
abstract class OutboxItemConfirmFormBase extends OutboxConfirmFormBase {

  /**
   * The mail the action is for.
   */
  protected OutboxItem $item;

  public function __construct(
    protected Outbox $outbox,
    protected OutboxActions $actions,
  ) {}

  /**
   * {@inheritdoc}
   */
  public function buildForm(array $form, FormStateInterface $form_state, ?int $id = NULL): array {
    $this->item = $this->outbox->get((int) $id) ?? throw new NotFoundHttpException();
    return parent::buildForm($form, $form_state);
  }

  /**
   * The placeholders that name the mail in a question: %to and %subject.
   *
   * @return array<string, string>
   *   The mail's recipient and subject.
   */
  protected function mailPlaceholders(): array {
    return [
      '%to' => $this->item->recipient,
      '%subject' => $this->item->subject,
    ];
  }

}
