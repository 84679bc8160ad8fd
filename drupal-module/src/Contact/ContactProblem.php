<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

/**
 * Why a contact post is refused, in the terms of the contact protocol.
 */
final class ContactProblem {

  public const INVALID_FIELD = 'invalid_field';
  public const SPAM_SUSPECTED = 'spam_suspected';
  public const FORBIDDEN_ORIGIN = 'forbidden_origin';
  public const PAYLOAD_TOO_LARGE = 'payload_too_large';
  public const UNSUPPORTED_MEDIA_TYPE = 'unsupported_media_type';
  public const RATE_LIMITED = 'rate_limited';
  public const NOT_CONFIGURED = 'not_configured';
  public const UPSTREAM_FAILED = 'upstream_failed';

  private const STATUS = [
    self::INVALID_FIELD => 400,
    self::SPAM_SUSPECTED => 400,
    self::FORBIDDEN_ORIGIN => 403,
    self::PAYLOAD_TOO_LARGE => 413,
    self::UNSUPPORTED_MEDIA_TYPE => 415,
    self::RATE_LIMITED => 429,
    self::NOT_CONFIGURED => 503,
    self::UPSTREAM_FAILED => 502,
  ];

  public function __construct(
    public readonly string $code,
    public readonly string $field = '',
    public readonly ?int $retryAfter = NULL,
  ) {
    if (!isset(self::STATUS[$code])) {
      throw new \InvalidArgumentException("Unknown contact problem: $code");
    }
  }

  public function status(): int {
    return self::STATUS[$this->code];
  }

}
