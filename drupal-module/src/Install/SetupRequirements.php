<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Install;

use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Api\InstanceHost;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Settings\SettingsValidator;

/**
 * Status report errors of a setup that stopped working after an update.
 *
 * The outbox table missing until update.php has run, and an instance address
 * that the module now refuses as private. Called by sitebeam_requirements()
 * and, for the address, by update 10009.
 */
class SetupRequirements {

  use StringTranslationTrait;

  public function __construct(
    protected Outbox $outbox,
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
    if (!$this->outbox->exists()) {
      $requirements['sitebeam_outbox_table'] = [
        'title' => $this->t('Sitebeam outbox'),
        'value' => $this->t('The outbox table is missing'),
        'description' => $this->t('Mail the Sitebeam instance cannot take at once is not kept for later, and is reported as not sent. Run the database updates (update.php, or <code>drush updb</code>).'),
        'severity' => REQUIREMENT_ERROR,
      ];
    }
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
