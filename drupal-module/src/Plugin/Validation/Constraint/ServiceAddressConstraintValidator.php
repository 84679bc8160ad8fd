<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Mail\SpecialUseDomain;
use Symfony\Component\Validator\Constraint;
use Symfony\Component\Validator\ConstraintValidator;

/**
 * Applies SpecialUseDomain::of() to config values.
 */
class ServiceAddressConstraintValidator extends ConstraintValidator {

  /**
   * {@inheritdoc}
   */
  public function validate(mixed $value, Constraint $constraint): void {
    assert($constraint instanceof ServiceAddressConstraint);
    $domain = is_string($value) ? SpecialUseDomain::of($value) : NULL;
    if ($domain !== NULL) {
      $this->context->addViolation($constraint->specialUseMessage, ['%address' => $value, '@domain' => $domain]);
    }
  }

}
