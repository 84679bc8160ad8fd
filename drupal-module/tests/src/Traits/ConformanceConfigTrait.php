<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

/**
 * The owner's settings a conformance case names in its "config" member.
 */
trait ConformanceConfigTrait {

  /**
   * The sitebeam.settings consent mapping for a case's config.consent.
   *
   * @param array|null $consent
   *   {label, policyUrl} as contract/conformance/README.md has it; NULL: off.
   */
  protected static function consentSetting(?array $consent): array {
    return [
      'enabled' => $consent !== NULL,
      'label' => $consent['label'] ?? '',
      'policy_url' => $consent['policyUrl'] ?? '',
    ];
  }

}
