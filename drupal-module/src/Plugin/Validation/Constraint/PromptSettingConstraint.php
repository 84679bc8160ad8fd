<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Validation\Attribute\Constraint;
use Symfony\Component\Validator\Constraint as SymfonyConstraint;

/**
 * A prompt setting of the chat: the type the API gives it, or empty.
 */
#[Constraint(
  id: 'SitebeamPromptSetting',
  label: new TranslatableMarkup('Sitebeam prompt setting', [], ['context' => 'Validation'])
)]
class PromptSettingConstraint extends SymfonyConstraint {

  /**
   * The message for an integer setting.
   */
  public string $integerMessage = 'The prompt setting %setting must be a whole number of 1 or more.';

  /**
   * The message for a number setting.
   */
  public string $numberMessage = 'The prompt setting %setting must be a number greater than 0.';

  /**
   * The message for a boolean setting.
   */
  public string $booleanMessage = 'The prompt setting %setting must be true or false.';

}
