<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

/**
 * Why a public endpoint refuses a request, in the terms of its protocol.
 */
abstract class Refusal {

  public function __construct(
    public readonly string $code,
    public readonly string $field = '',
    public readonly ?int $retryAfter = NULL,
  ) {
    if (!isset(static::statuses()[$code])) {
      throw new \InvalidArgumentException(sprintf('Unknown %s code: %s', static::class, $code));
    }
  }

  /**
   * The protocol's HTTP status of each code.
   *
   * @return array<string, int>
   *   Status by i18n_code.
   */
  abstract protected static function statuses(): array;

  /**
   * The HTTP status the protocol gives this code.
   */
  public function status(): int {
    return static::statuses()[$this->code];
  }

}
