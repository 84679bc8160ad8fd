<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

/**
 * Case-insensitive reads of a Drupal message's headers array.
 */
final class HeaderBag {

  /**
   * The value of a header, whatever the case of its name.
   */
  public static function get(array $headers, string $name): ?string {
    foreach ($headers as $key => $value) {
      if (is_string($key) && strcasecmp($key, $name) === 0 && is_scalar($value)) {
        return (string) $value;
      }
    }
    return NULL;
  }

  /**
   * The headers without the given names (any case).
   */
  public static function without(array $headers, string ...$names): array {
    return array_filter(
      $headers,
      static fn ($key): bool => !in_array(strtolower((string) $key), array_map('strtolower', $names), TRUE),
      ARRAY_FILTER_USE_KEY,
    );
  }

}
