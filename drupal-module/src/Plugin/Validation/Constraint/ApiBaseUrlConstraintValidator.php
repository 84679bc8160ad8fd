<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Settings\SettingsValidator;
use Symfony\Component\Validator\Constraint;

/**
 * Applies SettingsValidator::baseUrlProblem() to config values.
 *
 * @extends SettingConstraintValidatorBase<ApiBaseUrlConstraint>
 */
class ApiBaseUrlConstraintValidator extends SettingConstraintValidatorBase {

  /**
   * {@inheritdoc}
   */
  protected function problems(mixed $value, Constraint $constraint): iterable {
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
      yield [$message, ['%url' => $value], ''];
    }
  }

}
