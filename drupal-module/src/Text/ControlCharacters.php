<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Text;

/**
 * The contract's rule on control characters in the values the module sends.
 */
final class ControlCharacters {

  /**
   * C0, DEL, C1, U+2028 and U+2029: nothing a single-line field may hold.
   */
  private const SINGLE_LINE_FORBIDDEN = '/[\x{0000}-\x{001F}\x{007F}-\x{009F}\x{2028}\x{2029}]/u';

  /**
   * The same, except TAB, LF and CR.
   */
  private const MULTI_LINE_FORBIDDEN = '/[\x{0000}-\x{0008}\x{000B}\x{000C}\x{000E}-\x{001F}\x{007F}-\x{009F}\x{2028}\x{2029}]/u';

  /**
   * True when the text is valid UTF-8 without a forbidden character.
   */
  public static function isCleanSingleLine(string $text): bool {
    return preg_match(self::SINGLE_LINE_FORBIDDEN, $text) === 0;
  }

  /**
   * True when the text is valid UTF-8 and holds no control character but TAB, LF and CR.
   */
  public static function isCleanMultiLine(string $text): bool {
    return preg_match(self::MULTI_LINE_FORBIDDEN, $text) === 0;
  }

}
