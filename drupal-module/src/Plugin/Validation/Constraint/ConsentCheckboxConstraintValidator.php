<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\sitebeam\Consent\ConsentSettings;
use Symfony\Component\Validator\Constraint;

/**
 * Checks a sitebeam.consent_checkbox mapping as ConsentSettings reads it.
 *
 * @extends SettingConstraintValidatorBase<ConsentCheckboxConstraint>
 */
class ConsentCheckboxConstraintValidator extends SettingConstraintValidatorBase {

  /**
   * {@inheritdoc}
   */
  protected function problems(mixed $value, Constraint $constraint): iterable {
    $value = (array) $value;
    if (!empty($value['enabled']) && trim((string) ($value['label'] ?? '')) === '') {
      yield [$constraint->missingLabelMessage, [], 'label'];
    }
    $url = (string) ($value['policy_url'] ?? '');
    if ($url !== '' && ConsentSettings::policyUrlKind($url) === NULL) {
      yield [$constraint->policyUrlMessage, [], 'policy_url'];
    }
  }

}
