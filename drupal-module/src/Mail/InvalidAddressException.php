<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

/**
 * A mailbox whose display name is fine but whose address the contract refuses.
 */
final class InvalidAddressException extends \InvalidArgumentException {

  public function __construct(string $message, public readonly string $displayName) {
    parent::__construct($message);
  }

}
