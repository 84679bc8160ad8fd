<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Text;

use Drupal\sitebeam\Contract;

/**
 * The contract's rule on control characters in the values the module sends.
 */
final class ControlCharacters {

  /**
   * True when the text is valid UTF-8 without a forbidden character.
   */
  public static function isCleanSingleLine(string $text): bool {
    return preg_match(Contract::SINGLE_LINE_FORBIDDEN_PATTERN, $text) === 0;
  }

  /**
   * True when valid UTF-8 without control characters other than TAB, LF, CR.
   */
  public static function isCleanMultiLine(string $text): bool {
    return preg_match(Contract::MULTI_LINE_FORBIDDEN_PATTERN, $text) === 0;
  }

}
