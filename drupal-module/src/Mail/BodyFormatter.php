<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\Component\Render\MarkupInterface;

/**
 * Turns a Drupal message body into the HTML the API sends.
 */
final class BodyFormatter {

  /**
   * True when the Content-Type header announces HTML.
   */
  public static function isHtml(array $headers): bool {
    $type = HeaderBag::get($headers, 'Content-Type') ?? '';
    return stripos($type, 'text/html') !== FALSE;
  }

  /**
   * Joins the body parts; HTML is kept, plain text is escaped.
   *
   * @param array $parts
   *   Strings, or MarkupInterface objects, which are HTML (as for core's
   *   mailers).
   * @param bool $html
   *   Whether the message was written as HTML.
   */
  public static function toHtml(array $parts, bool $html): string {
    $blocks = [];
    foreach ($parts as $part) {
      $text = (string) $part;
      if ($html || $part instanceof MarkupInterface) {
        $blocks[] = $text;
      }
      elseif (trim($text) !== '') {
        $blocks[] = '<p>' . nl2br(self::escapeWithLinks($text), FALSE) . '</p>';
      }
    }
    return implode("\n", $blocks);
  }

  /**
   * Escapes text for an HTML body (visitor text in contact mail too).
   */
  public static function escape(string $text): string {
    return htmlspecialchars(str_replace(["\r\n", "\r"], "\n", $text), ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML5, 'UTF-8');
  }

  /**
   * Escapes text and makes its http(s) addresses clickable, as mail clients do.
   */
  private static function escapeWithLinks(string $text): string {
    $pieces = preg_split('~(https?://[^\s<>"\']*[^\s<>"\'.,;:!?)\]])~u', $text, -1, PREG_SPLIT_DELIM_CAPTURE) ?: [$text];
    $html = '';
    foreach ($pieces as $index => $piece) {
      $escaped = self::escape($piece);
      $html .= $index % 2 === 1 ? '<a href="' . $escaped . '">' . $escaped . '</a>' : $escaped;
    }
    return $html;
  }

}
