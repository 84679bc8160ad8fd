<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Symfony\Component\HttpFoundation\Request;

/**
 * The body of a post to a public endpoint: JSON object or form-encoded.
 */
final class RequestBody {

  public const JSON = 'application/json';
  public const FORM = 'application/x-www-form-urlencoded';

  /**
   * The Content-Type without its parameters, in lower case.
   */
  public static function mediaType(Request $request): string {
    return strtolower(trim(explode(';', (string) $request->headers->get('Content-Type', ''))[0]));
  }

  /**
   * True for the two media types the protocols accept.
   */
  public static function isSupported(Request $request): bool {
    return in_array(self::mediaType($request), [self::JSON, self::FORM], TRUE);
  }

  /**
   * True when the body is over the limit, read no further than the limit.
   */
  public static function isTooLarge(Request $request, int $max_bytes): bool {
    $length = $request->headers->get('Content-Length');
    if ($length !== NULL && (int) $length > $max_bytes) {
      return TRUE;
    }
    // A chunked body has no Content-Length: read one byte past the limit.
    $stream = $request->getContent(TRUE);
    $head = stream_get_contents($stream, $max_bytes + 1);
    if (is_resource($stream) && stream_get_meta_data($stream)['seekable']) {
      rewind($stream);
    }
    return strlen((string) $head) > $max_bytes;
  }

  /**
   * The decoded fields, or NULL when a JSON body is not an object.
   */
  public static function fields(Request $request): ?array {
    if (self::mediaType($request) !== self::JSON) {
      return $request->request->all();
    }
    $content = self::markInvalidText($request->getContent());
    return json_decode($content) instanceof \stdClass ? json_decode($content, TRUE) : NULL;
  }

  /**
   * Replaces invalid UTF-8 and lone surrogate escapes with an escaped NUL.
   *
   * Json_decode() refuses the whole body for either; the NUL then fails the
   * control-character rule of the field that held it, which the answer names.
   */
  private static function markInvalidText(string $json): string {
    if (!mb_check_encoding($json, 'UTF-8')) {
      $json = (string) preg_replace('/(?:[\x00-\x7F]|[\xC2-\xDF][\x80-\xBF]|\xE0[\xA0-\xBF][\x80-\xBF]|[\xE1-\xEC\xEE\xEF][\x80-\xBF]{2}|\xED[\x80-\x9F][\x80-\xBF]|\xF0[\x90-\xBF][\x80-\xBF]{2}|[\xF1-\xF3][\x80-\xBF]{3}|\xF4[\x80-\x8F][\x80-\xBF]{2})(*SKIP)(*FAIL)|./s', '\\u0000', $json);
    }
    return (string) preg_replace('/\\\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\\\u[dD][89abAB][0-9a-fA-F]{2})\\\\u[dD][c-fC-F][0-9a-fA-F]{2}/', '\\u0000', $json);
  }

}
