<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Settings;

use Drupal\sitebeam\Api\LocalhostNames;

/**
 * Rules of sitebeam.settings values that core's constraints cannot express.
 */
final class SettingsValidator {

  public const URL_INVALID = 'url_invalid';
  public const URL_NOT_HTTPS = 'url_not_https';
  public const URL_HAS_PATH = 'url_has_path';

  private const LOCAL_HOSTS = ['127.0.0.1', '[::1]', '::1'];

  /**
   * The token travels to this address: https, except on this machine.
   *
   * @return string|null
   *   NULL when the address is fine (or empty: not configured yet), else one
   *   of the URL_* constants.
   */
  public static function baseUrlProblem(string $url): ?string {
    $url = trim($url);
    if ($url === '') {
      return NULL;
    }
    $parts = parse_url($url);
    if ($parts === FALSE || !isset($parts['scheme'], $parts['host']) || isset($parts['user']) || isset($parts['query']) || isset($parts['fragment']) || preg_match('/\s/', $url)) {
      return self::URL_INVALID;
    }
    $scheme = strtolower($parts['scheme']);
    $host = strtolower($parts['host']);
    $local = in_array($host, self::LOCAL_HOSTS, TRUE) || LocalhostNames::isLocalhostName($host);
    if ($scheme === 'http' && !$local) {
      return self::URL_NOT_HTTPS;
    }
    if ($scheme !== 'https' && $scheme !== 'http') {
      return self::URL_INVALID;
    }
    return rtrim($parts['path'] ?? '', '/') === '' ? NULL : self::URL_HAS_PATH;
  }

  /**
   * The "paths not tracked" textarea as a list: one pattern per line.
   *
   * @return string[]
   *   The non-empty, trimmed lines.
   */
  public static function pathLines(string $lines): array {
    return array_values(array_filter(array_map('trim', preg_split('/\R/', $lines) ?: []), 'strlen'));
  }

}
