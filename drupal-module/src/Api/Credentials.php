<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

/**
 * The instance address and the token, and where the token came from.
 */
final class Credentials {

  public const SOURCE_SETTINGS_PHP = 'settings.php';
  public const SOURCE_CONFIG = 'config';
  public const SOURCE_NONE = 'none';

  public function __construct(
    private readonly string $baseUrl,
    private readonly string $token,
    private readonly string $source,
  ) {}

  /**
   * Prefers the settings.php token: it never lands in a config export.
   */
  public static function resolve(string $base_url, ?string $settings_token, ?string $config_token): self {
    $settings_token = trim((string) $settings_token);
    $config_token = trim((string) $config_token);
    if ($settings_token !== '') {
      return new self($base_url, $settings_token, self::SOURCE_SETTINGS_PHP);
    }
    if ($config_token !== '') {
      return new self($base_url, $config_token, self::SOURCE_CONFIG);
    }
    return new self($base_url, '', self::SOURCE_NONE);
  }

  /**
   * The instance address without a trailing slash.
   */
  public function baseUrl(): string {
    return rtrim(trim($this->baseUrl), '/');
  }

  /**
   * The API token; never shown, logged or rendered.
   */
  public function token(): string {
    return $this->token;
  }

  /**
   * Where the token came from: one of the SOURCE_* constants.
   */
  public function tokenSource(): string {
    return $this->source;
  }

  /**
   * True when both the address and the token are known.
   */
  public function isComplete(): bool {
    return $this->baseUrl() !== '' && $this->token !== '';
  }

}
