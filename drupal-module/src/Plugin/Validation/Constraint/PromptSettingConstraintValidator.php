<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Chat\PromptSettings;
use Symfony\Component\Validator\Constraint;

/**
 * Applies PromptSettings::isValid() to the setting named by the config key.
 *
 * @extends SettingConstraintValidatorBase<PromptSettingConstraint>
 */
class PromptSettingConstraintValidator extends SettingConstraintValidatorBase {

  /**
   * {@inheritdoc}
   */
  protected function problems(mixed $value, Constraint $constraint): iterable {
    $name = (string) $this->context->getObject()?->getName();
    if ($value === NULL || PromptSettings::isValid($name, $value)) {
      return;
    }
    $message = match (PromptSettings::types()[$name] ?? NULL) {
      PromptSettings::INTEGER => $constraint->integerMessage,
      PromptSettings::NUMBER => $constraint->numberMessage,
      default => $constraint->booleanMessage,
    };
    yield [$message, ['%setting' => $name], ''];
  }

}
