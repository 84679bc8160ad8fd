<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Text\ControlCharacters;

/**
 * Reads address headers.
 *
 * For example: a@x.example, Name <b@x.example>, "Last, First" <c@x.example>.
 */
final class AddressParser {

  /**
   * Every mailbox of a header value, in order, each address once.
   *
   * @return \Drupal\sitebeam\Mail\Address[]
   *   The mailboxes.
   *
   * @throws \InvalidArgumentException
   *   A line break (header injection), a control character in a decoded
   *   display name or an invalid address (InvalidAddressException); the
   *   message names the header.
   */
  public static function parseList(string $value, string $header): array {
    if (preg_match('/[\r\n]/', $value)) {
      throw new \InvalidArgumentException(sprintf('The %s header contains a line break.', $header));
    }
    $addresses = [];
    foreach (str_getcsv($value, ',', '"', '\\') as $item) {
      $item = trim((string) $item);
      if ($item === '') {
        continue;
      }
      $address = self::parseMailbox($item, $header);
      $addresses[strtolower($address->email)] ??= $address;
    }
    return array_values($addresses);
  }

  /**
   * True when the text is one bare address by the contract's address rule.
   *
   * The rule is the service's: special-use domains are refused too.
   */
  public static function isValidEmail(string $email): bool {
    return preg_match(Contract::EMAIL_ADDRESS_PATTERN, $email) === 1;
  }

  /**
   * One mailbox, "Name <address>" or a bare address.
   */
  private static function parseMailbox(string $item, string $header): Address {
    $name = '';
    $email = $item;
    if (preg_match('/^(.*)<([^<>]+)>$/s', $item, $parts)) {
      $name = self::decodeName(trim($parts[1]));
      $email = trim($parts[2]);
    }
    // Checked after decoding: =?UTF-8?B?…?= can hide a line break.
    if (!ControlCharacters::isCleanSingleLine($name)) {
      throw new \InvalidArgumentException(sprintf('The %s header holds a control character in its display name.', $header));
    }
    $special_use = SpecialUseDomain::of($email);
    if ($special_use !== NULL) {
      throw new InvalidAddressException(sprintf('The %s header holds "%s", refused by the API: .%s is a special-use domain.', $header, $email, $special_use), $name);
    }
    if (!self::isValidEmail($email)) {
      throw new InvalidAddressException(sprintf('The %s header holds an invalid address: "%s".', $header, $email), $name);
    }
    return new Address($email, $name);
  }

  /**
   * The display name unquoted and MIME-decoded.
   */
  private static function decodeName(string $name): string {
    $name = trim($name, " \t\"");
    if (str_contains($name, '=?')) {
      $decoded = iconv_mime_decode($name, ICONV_MIME_DECODE_CONTINUE_ON_ERROR, 'UTF-8');
      $name = $decoded === FALSE ? $name : $decoded;
    }
    return stripslashes($name);
  }

}
