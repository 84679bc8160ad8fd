<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\OutboxReport\ErrorInWords;
use Drupal\sitebeam\OutboxReport\OutboxActions;

/**
 * Sends a mail the instance refused for good again, once the owner agrees.
 *
 * The question names the refusal: sent unchanged, the mail is refused the
 * same way unless its cause was corrected on the instance.
 */
class OutboxSendAgainForm extends OutboxItemConfirmFormBase {

  public function __construct(
    Outbox $outbox,
    OutboxActions $actions,
    protected ErrorInWords $errorInWords,
  ) {
    parent::__construct($outbox, $actions);
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
  public function getQuestion(): TranslatableMarkup {
    return $this->t('Send the mail to %to (%subject) again?', $this->mailPlaceholders());
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
  protected function confirmed(): void {
    $this->actions->sendNow($this->item->id, TRUE);
  }

}
