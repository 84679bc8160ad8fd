<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Mail\SpecialUseDomain;
use Symfony\Component\Validator\Constraint;

/**
 * Applies SpecialUseDomain::of() to config values.
 *
 * @extends SettingConstraintValidatorBase<ServiceAddressConstraint>
 */
class ServiceAddressConstraintValidator extends SettingConstraintValidatorBase {

  /**
   * {@inheritdoc}
   */
  protected function problems(mixed $value, Constraint $constraint): iterable {
    $domain = is_string($value) ? SpecialUseDomain::of($value) : NULL;
    if ($domain !== NULL) {
      yield [$constraint->specialUseMessage, ['%address' => $value, '@domain' => $domain], ''];
    }
  }

}
