<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\sitebeam\Consent\ConsentCheckbox;

/**
 * A visitor's message that passed every rule of the contact protocol.
 */
final class ContactSubmission {

  /**
   * Constructs a submission.
   *
   * @param string $name
   *   The visitor's name.
   * @param string $email
   *   The visitor's address.
   * @param string $subject
   *   The subject, maybe empty.
   * @param string $message
   *   The message.
   * @param \Drupal\sitebeam\Consent\ConsentCheckbox|null $agreedTo
   *   The checkbox the visitor ticked; NULL when none was asked for.
   */
  public function __construct(
    public readonly string $name,
    public readonly string $email,
    public readonly string $subject,
    public readonly string $message,
    public readonly ?ConsentCheckbox $agreedTo = NULL,
  ) {}

}
