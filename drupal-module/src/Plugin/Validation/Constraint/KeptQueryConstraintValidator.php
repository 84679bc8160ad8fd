<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Tracker\KeptQuery;
use Symfony\Component\Validator\Constraint;

/**
 * Applies KeptQuery::normalize() to config values.
 *
 * @extends SettingConstraintValidatorBase<KeptQueryConstraint>
 */
class KeptQueryConstraintValidator extends SettingConstraintValidatorBase {

  /**
   * {@inheritdoc}
   */
  protected function problems(mixed $value, Constraint $constraint): iterable {
    if (is_string($value) && KeptQuery::normalize($value) === NULL) {
      yield [$constraint->message, ['%value' => $value], ''];
    }
  }

}
