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

  public function siteCredentials(): Credentials {
    $config = $this->configFactory->get('sitebeam.settings');
    return Credentials::resolve(
      (string) $config->get('base_url'),
      $this->settings->get(self::SETTINGS_TOKEN_KEY),
      $config->get('api_token'),
    );
  }

  /**
   * Credentials for values not saved yet; an empty token keeps the site's.
   */
  public function forValues(string $base_url, string $typed_token): Credentials {
    $site = $this->siteCredentials();
    if (trim($typed_token) !== '' && $site->tokenSource() !== Credentials::SOURCE_SETTINGS_PHP) {
      return Credentials::resolve($base_url, NULL, $typed_token);
    }
    return Credentials::resolve($base_url, $this->settings->get(self::SETTINGS_TOKEN_KEY), $this->configFactory->get('sitebeam.settings')->get('api_token'));
  }

}
