<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Validation\Attribute\Constraint;
use Symfony\Component\Validator\Constraint as SymfonyConstraint;

/**
 * The tracker's kept query parameters: names separated by commas, or "*".
 */
#[Constraint(
  id: 'SitebeamKeptQuery',
  label: new TranslatableMarkup('Sitebeam kept query parameters', [], ['context' => 'Validation'])
)]
class KeptQueryConstraint extends SymfonyConstraint {

  /**
   * The message for a value that is neither names nor "*".
   */
  public string $message = 'The kept query parameters %value must be parameter names separated by commas (letters, digits, _ . - [ ], * as a wildcard), or * for all.';

}
