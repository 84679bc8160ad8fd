<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

/**
 * A visitor's message that passed every rule of the contact protocol.
 */
final class ContactSubmission {

  public function __construct(
    public readonly string $name,
    public readonly string $email,
    public readonly string $subject,
    public readonly string $message,
  ) {}

}
