<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\sitebeam\Mail\AddressParser;

/**
 * The field rules of the contact protocol (snippet/src/form/PROTOCOL.md).
 */
final class ContactValidator {

  public const HONEYPOT = 'homepage';
  public const STARTED_AT = 'started_at';
  public const MIN_FILL_MILLISECONDS = 3000;
  public const MAX_BODY_BYTES = 65536;

  /**
   * Field name => [required, maximum length, single line].
   */
  private const RULES = [
    'name' => [TRUE, 200, TRUE],
    'email' => [TRUE, 254, TRUE],
    'subject' => [FALSE, 200, TRUE],
    'message' => [TRUE, 10000, FALSE],
  ];

  /**
   * Checks a decoded post; spam signs first, then each field in form order.
   */
  public static function validate(array $input, int $now_milliseconds): ContactSubmission|ContactProblem {
    $honeypot = $input[self::HONEYPOT] ?? '';
    if (!is_string($honeypot) || $honeypot !== '') {
      return new ContactProblem(ContactProblem::SPAM_SUSPECTED);
    }
    if (isset($input[self::STARTED_AT]) && $input[self::STARTED_AT] !== '') {
      $started = $input[self::STARTED_AT];
      // A start in the future is the visitor's clock running ahead, not a bot.
      $elapsed = is_numeric($started) ? $now_milliseconds - (int) $started : 0;
      if (!is_numeric($started) || ($elapsed >= 0 && $elapsed < self::MIN_FILL_MILLISECONDS)) {
        return new ContactProblem(ContactProblem::SPAM_SUSPECTED);
      }
    }

    $values = [];
    foreach (self::RULES as $field => [$required, $max_length, $single_line]) {
      $value = $input[$field] ?? '';
      if (!is_string($value)) {
        return new ContactProblem(ContactProblem::INVALID_FIELD, $field);
      }
      $value = $single_line ? trim($value) : rtrim($value);
      $too_long = mb_strlen($value) > $max_length;
      $breaks_line = $single_line && preg_match('/[\r\n]/', $value);
      if (($required && trim($value) === '') || $too_long || $breaks_line || !mb_check_encoding($value, 'UTF-8')) {
        return new ContactProblem(ContactProblem::INVALID_FIELD, $field);
      }
      $values[$field] = $value;
    }
    if (!AddressParser::isValidEmail($values['email'])) {
      return new ContactProblem(ContactProblem::INVALID_FIELD, 'email');
    }
    return new ContactSubmission($values['name'], $values['email'], $values['subject'], $values['message']);
  }

}
