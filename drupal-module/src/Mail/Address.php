<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

/**
 * One mailbox: an address and, when the header gave one, a display name.
 */
final class Address {

  public function __construct(
    public readonly string $email,
    public readonly string $name = '',
  ) {}

}
