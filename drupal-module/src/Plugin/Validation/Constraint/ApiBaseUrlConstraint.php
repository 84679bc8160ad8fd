<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Validation\Attribute\Constraint;
use Symfony\Component\Validator\Constraint as SymfonyConstraint;

/**
 * The instance base URL: https, except on this machine; no path.
 */
#[Constraint(
  id: 'SitebeamApiBaseUrl',
  label: new TranslatableMarkup('Sitebeam instance base URL', [], ['context' => 'Validation'])
)]
class ApiBaseUrlConstraint extends SymfonyConstraint {

  /**
   * The message for an address that is not a URL.
   */
  public string $invalidMessage = 'The instance address %url is not a valid URL such as https://api.example.com.';

  /**
   * The message for plain http to another machine.
   */
  public string $notHttpsMessage = 'The instance address %url must use https: the API token is sent to it. Plain http is accepted only for localhost and 127.0.0.1.';

  /**
   * The message for an address with a path.
   */
  public string $hasPathMessage = 'The instance address %url must be the base address only, without a path such as /v1.';

}
