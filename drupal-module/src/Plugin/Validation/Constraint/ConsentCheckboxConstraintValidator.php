<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Consent\ConsentSettings;
use Symfony\Component\Validator\Constraint;
use Symfony\Component\Validator\ConstraintValidator;

/**
 * Checks a sitebeam.consent_checkbox mapping as ConsentSettings reads it.
 */
class ConsentCheckboxConstraintValidator extends ConstraintValidator {

  /**
   * {@inheritdoc}
   */
  public function validate(mixed $value, Constraint $constraint): void {
    assert($constraint instanceof ConsentCheckboxConstraint);
    $value = (array) $value;
    if (!empty($value['enabled']) && trim((string) ($value['label'] ?? '')) === '') {
      $this->context->buildViolation($constraint->missingLabelMessage)->atPath('label')->addViolation();
    }
    $url = (string) ($value['policy_url'] ?? '');
    if ($url !== '' && ConsentSettings::policyUrlKind($url) === NULL) {
      $this->context->buildViolation($constraint->policyUrlMessage)->atPath('policy_url')->addViolation();
    }
  }

}
