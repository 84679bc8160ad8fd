<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\sitebeam\Consent\ConsentCheckbox;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Mail\AddressParser;
use Drupal\sitebeam\Text\ControlCharacters;

/**
 * The field rules of the contact protocol (contract/contact-protocol.md).
 */
final class ContactValidator {

  /**
   * Field name => [required, maximum length, single line].
   */
  private const RULES = [
    Contract::CONTACT_FIELD_NAME => [TRUE, Contract::CONTACT_NAME_MAX_CHARS, TRUE],
    Contract::CONTACT_FIELD_EMAIL => [TRUE, Contract::CONTACT_EMAIL_MAX_CHARS, TRUE],
    Contract::CONTACT_FIELD_SUBJECT => [FALSE, Contract::CONTACT_SUBJECT_MAX_CHARS, TRUE],
    Contract::CONTACT_FIELD_MESSAGE => [TRUE, Contract::CONTACT_MESSAGE_MAX_CHARS, FALSE],
  ];

  /**
   * Checks a decoded post: the honeypot, the ticket, each field, the consent.
   *
   * @param array $input
   *   The decoded body.
   * @param callable $is_valid_ticket
   *   Tells whether the post's ticket value is valid.
   * @param \Drupal\sitebeam\Consent\ConsentCheckbox|null $consent
   *   The checkbox the visitor must have ticked; NULL when none is asked for.
   */
  public static function validate(array $input, callable $is_valid_ticket, ?ConsentCheckbox $consent = NULL): ContactSubmission|ContactProblem {
    $honeypot = $input[Contract::CONTACT_FIELD_HONEYPOT] ?? '';
    if (!is_string($honeypot) || $honeypot !== '') {
      return new ContactProblem(ContactProblem::SPAM_SUSPECTED);
    }
    if (!$is_valid_ticket($input[Contract::CONTACT_FIELD_TICKET] ?? NULL)) {
      return new ContactProblem(ContactProblem::SPAM_SUSPECTED, Contract::CONTACT_FIELD_TICKET);
    }

    $values = [];
    foreach (self::RULES as $field => [$required, $max_length, $single_line]) {
      $value = $input[$field] ?? '';
      if (!is_string($value) || !self::isAllowed($value, $required, $max_length, $single_line)) {
        return new ContactProblem(ContactProblem::INVALID_FIELD, $field);
      }
      $values[$field] = $single_line ? trim($value) : rtrim($value);
      if ($field === Contract::CONTACT_FIELD_EMAIL && !AddressParser::isValidEmail($values[$field])) {
        return new ContactProblem(ContactProblem::INVALID_FIELD, $field);
      }
    }
    if ($consent !== NULL && !ConsentCheckbox::isGiven($input[Contract::CONTACT_FIELD_CONSENT] ?? NULL)) {
      return new ContactProblem(ContactProblem::INVALID_FIELD, Contract::CONTACT_FIELD_CONSENT);
    }
    return new ContactSubmission(
      $values[Contract::CONTACT_FIELD_NAME],
      $values[Contract::CONTACT_FIELD_EMAIL],
      $values[Contract::CONTACT_FIELD_SUBJECT],
      $values[Contract::CONTACT_FIELD_MESSAGE],
      $consent,
    );
  }

  /**
   * Valid UTF-8, within the length, no forbidden control character.
   */
  private static function isAllowed(string $value, bool $required, int $max_length, bool $single_line): bool {
    if (!mb_check_encoding($value, 'UTF-8')) {
      return FALSE;
    }
    $clean = $single_line ? ControlCharacters::isCleanSingleLine($value) : ControlCharacters::isCleanMultiLine($value);
    return $clean && mb_strlen($value, 'UTF-8') <= $max_length && (!$required || trim($value) !== '');
  }

}
