<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit\Doubles;

use Drupal\sitebeam\Contract;

/**
 * A readable file one byte over the attachment limit, which counts its opens.
 *
 * Registered as a stream wrapper: stat() says its size, and an attempt to
 * read it is counted and fails, so a test sees whether a file was read.
 */
final class OversizedFileStream {

  public const SCHEME = 'sitebeam-oversized';

  /**
   * How many times the file was opened since register().
   */
  public static int $opened = 0;

  /**
   * The stream context PHP sets on every wrapper.
   *
   * @var resource|null
   */
  public $context;

  /**
   * Registers the wrapper under SCHEME, the count at zero.
   */
  public static function register(): void {
    self::$opened = 0;
    if (!in_array(self::SCHEME, stream_get_wrappers(), TRUE)) {
      stream_wrapper_register(self::SCHEME, self::class);
    }
  }

  /**
   * A regular file anyone may read, one byte over the limit.
   */
  // phpcs:ignore Drupal.NamingConventions.ValidFunctionName.ScopeNotCamelCaps, Drupal.Commenting.FunctionComment.Missing
  public function url_stat(string $path, int $flags): array {
    return ['mode' => 0100444, 'size' => Contract::LIMIT_ATTACHMENT_BYTES + 1];
  }

  /**
   * Counts the attempt to read; the file opens nowhere.
   */
  // phpcs:ignore Drupal.NamingConventions.ValidFunctionName.ScopeNotCamelCaps, Drupal.Commenting.FunctionComment.Missing
  public function stream_open(string $path, string $mode, int $options, ?string &$opened_path): bool {
    self::$opened++;
    return FALSE;
  }

}
