<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Tracker\KeptQuery;
use Symfony\Component\Validator\Constraint;
use Symfony\Component\Validator\ConstraintValidator;

/**
 * Applies KeptQuery::normalize() to config values.
 */
class KeptQueryConstraintValidator extends ConstraintValidator {

  /**
   * {@inheritdoc}
   */
  public function validate(mixed $value, Constraint $constraint): void {
    assert($constraint instanceof KeptQueryConstraint);
    if (is_string($value) && KeptQuery::normalize($value) === NULL) {
      $this->context->addViolation($constraint->message, ['%value' => $value]);
    }
  }

}
