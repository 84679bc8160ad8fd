<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Site\Settings;

/**
 * Builds the site's credentials from settings.php and sitebeam.settings.
 */
class CredentialsFactory {

  public const SETTINGS_TOKEN_KEY = 'sitebeam_api_token';

  public function __construct(
    protected ConfigFactoryInterface $configFactory,
    protected Settings $settings,
  ) {}

  /**
   * The saved credentials, settings.php overrides included.
   */
  public function siteCredentials(): Credentials {
    $config = $this->configFactory->get('sitebeam.settings');
    return Credentials::resolve(
      (string) $config->get('base_url'),
      $this->settings->get(self::SETTINGS_TOKEN_KEY),
      $config->get('api_token'),
    );
  }

  /**
   * Credentials for values typed into the form, not saved yet.
   *
   * A typed token goes with the typed address. The stored token only ever
   * goes to the site's own address: NULL when another address is typed
   * without a token of its own.
   */
  public function forValues(string $base_url, string $typed_token): ?Credentials {
    $site = $this->siteCredentials();
    if (trim($typed_token) !== '' && $site->tokenSource() !== Credentials::SOURCE_SETTINGS_PHP) {
      return Credentials::resolve($base_url, NULL, $typed_token);
    }
    $typed = Credentials::resolve($base_url, NULL, NULL);
    return $typed->baseUrl() === $site->baseUrl() ? $site : NULL;
  }

}
