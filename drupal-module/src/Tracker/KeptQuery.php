<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Tracker;

/**
 * The query parameters a visit record keeps: the tag's data-keep-query.
 *
 * Empty leaves the attribute out, so the tag keeps its own default (the
 * campaign parameters); "*" keeps the whole query string; otherwise a comma
 * list of parameter names, "*" in a name matching any characters (utm_*).
 * The same rule as the WordPress plugin's Kept_Query.
 */
final class KeptQuery {

  /**
   * Every parameter: the tag then reports the full page URL.
   */
  public const ALL = '*';

  /**
   * A parameter name as the tag compares it, * a wildcard.
   */
  private const NAME_PATTERN = '/^[A-Za-z0-9_.\[\]*-]+$/D';

  /**
   * The value without spaces around names; NULL when it is not names or "*".
   */
  public static function normalize(string $value): ?string {
    $names = array_values(array_unique(array_filter(array_map('trim', explode(',', $value)), 'strlen')));
    foreach ($names as $name) {
      if (preg_match(self::NAME_PATTERN, $name) !== 1) {
        return NULL;
      }
      // A name of stars alone matches every name.
      if (trim($name, '*') === '') {
        return self::ALL;
      }
    }
    return implode(',', $names);
  }

  /**
   * The form's value for configuration, normalized when valid.
   *
   * An invalid value is kept as typed, so that the schema's constraint names
   * it on the form.
   */
  public static function fromInput(string $input): string {
    return self::normalize($input) ?? trim($input);
  }

}
