<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Validation\Attribute\Constraint;
use Symfony\Component\Validator\Constraint as SymfonyConstraint;

/**
 * An address the API accepts: none at a special-use domain.
 */
#[Constraint(
  id: 'SitebeamServiceAddress',
  label: new TranslatableMarkup('Address the Sitebeam API accepts', [], ['context' => 'Validation'])
)]
class ServiceAddressConstraint extends SymfonyConstraint {

  /**
   * The message for an address at a special-use domain.
   */
  public string $specialUseMessage = 'The Sitebeam API refuses %address: .@domain is a special-use domain that never receives mail. Use an address at a real domain.';

}
