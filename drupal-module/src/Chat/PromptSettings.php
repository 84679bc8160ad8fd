<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\sitebeam\Contract;

/**
 * The API's prompt settings and their types (the contract's lists).
 */
final class PromptSettings {

  public const INTEGER = 'integer';
  public const NUMBER = 'number';
  public const BOOLEAN = 'boolean';

  /**
   * Every recognised setting and its type, in the contract's order.
   *
   * @return array<string, string>
   *   Type (one of the constants) by setting name.
   */
  public static function types(): array {
    return array_fill_keys(Contract::PROMPT_INTEGER_SETTINGS, self::INTEGER)
      + array_fill_keys(Contract::PROMPT_POSITIVE_NUMBER_SETTINGS, self::NUMBER)
      + array_fill_keys(Contract::PROMPT_BOOLEAN_SETTINGS, self::BOOLEAN);
  }

  /**
   * True when the value fits the setting's type: integers ≥ 1, numbers > 0.
   */
  public static function isValid(string $name, mixed $value): bool {
    return match (self::types()[$name] ?? NULL) {
      self::INTEGER => is_int($value) && $value >= 1,
      self::NUMBER => (is_int($value) || is_float($value)) && $value > 0 && is_finite((float) $value),
      self::BOOLEAN => is_bool($value),
      default => FALSE,
    };
  }

  /**
   * Types a value typed into a form; NULL for an empty field.
   *
   * A value that cannot be typed is returned as it is, for isValid() to
   * refuse.
   */
  public static function fromInput(string $name, mixed $input): mixed {
    return self::typed(self::types()[$name] ?? '', $input);
  }

  /**
   * Types a form value as one of the type constants; NULL for empty.
   */
  public static function typed(string $type, mixed $input): mixed {
    if ($input === NULL || $input === '' || !is_scalar($input)) {
      return NULL;
    }
    $text = trim((string) $input);
    return match ($type) {
      // phpcs:ignore PHPCompatibility.Operators.RemovedTernaryAssociativity.Removed -- one ternary in each of two match arms, not a chain: PHPCompatibility 10.0.0-alpha reads across the comma between them.
      self::INTEGER => preg_match('/^\d+$/D', $text) ? (int) $text : $text,
      self::NUMBER => is_numeric($text) ? (float) $text : $text,
      self::BOOLEAN => match ($text) {
        'true', '1' => TRUE,
        'false', '0' => FALSE,
        default => $text,
      },
      default => $text,
    };
  }

  /**
   * The values under the service's names: an alias's value goes to its name.
   *
   * A value set under both keeps the service's name's; none is dropped.
   */
  public static function canonical(array $values): array {
    foreach (Contract::PROMPT_SETTING_ALIASES as $alias => $name) {
      if (array_key_exists($alias, $values)) {
        $values[$name] ??= $values[$alias];
        unset($values[$alias]);
      }
    }
    return $values;
  }

  /**
   * The settings to send: the valid ones, in the contract's order.
   *
   * @param array $values
   *   Values by setting name or alias (a settings.php override may still use
   *   one); NULL means "the API's default".
   */
  public static function toSend(array $values): array {
    $values = self::canonical($values);
    $settings = [];
    foreach (array_keys(self::types()) as $name) {
      $value = $values[$name] ?? NULL;
      if ($value !== NULL && self::isValid($name, $value)) {
        $settings[$name] = $value;
      }
    }
    return $settings;
  }

}
