<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Validation\Attribute\Constraint;
use Symfony\Component\Validator\Constraint as SymfonyConstraint;

/**
 * A consent checkbox visitors can agree to: a text when on, a safe link.
 */
#[Constraint(
  id: 'SitebeamConsentCheckbox',
  label: new TranslatableMarkup('Sitebeam consent checkbox', [], ['context' => 'Validation'])
)]
class ConsentCheckboxConstraint extends SymfonyConstraint {

  /**
   * The message for a checkbox turned on without a text.
   */
  public string $missingLabelMessage = 'Enter the text visitors agree to, or stop asking for consent.';

  /**
   * The message for a policy address that is neither https nor a local path.
   */
  public string $policyUrlMessage = 'The privacy policy address must start with https:// or be a path of this site starting with /.';

}
