<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Install;

use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Api\InstanceHost;
use Drupal\sitebeam\Settings\SettingsValidator;

/**
 * A status report error of a setup that stopped working after an update.
 *
 * An instance address that the module now refuses as private. Called by the
 * status report (StatusReport, which also reports a missing outbox table) and
 * by update 10009.
 */
class SetupRequirements {

  use StringTranslationTrait;

  public function __construct(
    protected CredentialsFactory $credentialsFactory,
    protected InstanceHost $instanceHost,
    TranslationInterface $string_translation,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * The status report's lines (hook_requirements(), runtime phase).
   */
  public function runtime(): array {
    $requirements = [];
    $private = $this->privateInstanceProblem();
    if ($private !== NULL) {
      $requirements['sitebeam_private_instance'] = [
        'title' => $this->t('Sitebeam instance address'),
        'value' => $this->t('Refused as private'),
        'description' => $private,
        'severity' => REQUIREMENT_ERROR,
      ];
    }
    return $requirements;
  }

  /**
   * What is wrong, and the fix, when the saved address is refused as private.
   *
   * NULL when the address is public, not set, or settings.php allows
   * private hosts.
   */
  public function privateInstanceProblem(): ?TranslatableMarkup {
    $url = $this->credentialsFactory->siteCredentials()->baseUrl();
    if ($url === '' || SettingsValidator::baseUrlProblem($url) !== NULL || $this->instanceHost->check($url)[0] !== InstanceHost::PRIVATE) {
      return NULL;
    }
    return $this->t("The Sitebeam instance address @url is a private, loopback or reserved address, or uses a port other than 80, 443 and 8080: the module refuses it, so site mail, the contact form and the chat fail. If the instance runs on your own network, allow it in settings.php: <code>\$settings['@key'] = TRUE;</code>", [
      '@url' => $url,
      '@key' => InstanceHost::ALLOW_PRIVATE_HOSTS,
    ]);
  }

}
