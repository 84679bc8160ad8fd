<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Settings\SettingsValidator;
use Symfony\Component\Validator\Constraint;
use Symfony\Component\Validator\ConstraintValidator;

/**
 * Applies SettingsValidator::baseUrlProblem() to config values.
 */
class ApiBaseUrlConstraintValidator extends ConstraintValidator {

  /**
   * {@inheritdoc}
   */
  public function validate(mixed $value, Constraint $constraint): void {
    assert($constraint instanceof ApiBaseUrlConstraint);
    if (!is_string($value)) {
      return;
    }
    $message = match (SettingsValidator::baseUrlProblem($value)) {
      NULL => NULL,
      SettingsValidator::URL_NOT_HTTPS => $constraint->notHttpsMessage,
      SettingsValidator::URL_HAS_PATH => $constraint->hasPathMessage,
      default => $constraint->invalidMessage,
    };
    if ($message !== NULL) {
      $this->context->addViolation($message, ['%url' => $value]);
    }
  }

}
