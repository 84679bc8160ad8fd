<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Chat\PromptSettings;
use Symfony\Component\Validator\Constraint;
use Symfony\Component\Validator\ConstraintValidator;

/**
 * Applies PromptSettings::isValid() to the setting named by the config key.
 */
class PromptSettingConstraintValidator extends ConstraintValidator {

  /**
   * {@inheritdoc}
   */
  public function validate(mixed $value, Constraint $constraint): void {
    assert($constraint instanceof PromptSettingConstraint);
    $name = (string) $this->context->getObject()?->getName();
    if ($value === NULL || PromptSettings::isValid($name, $value)) {
      return;
    }
    $message = match (PromptSettings::types()[$name] ?? NULL) {
      PromptSettings::INTEGER => $constraint->integerMessage,
      PromptSettings::NUMBER => $constraint->numberMessage,
      default => $constraint->booleanMessage,
    };
    $this->context->addViolation($message, ['%setting' => $name]);
  }

}
