<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\sitebeam\Contract;

/**
 * Maps a formatted Drupal message to /v1/email payloads.
 *
 * The API takes one recipient per message, so every To, Cc and Bcc address
 * gets its own copy: each one receives the message and no Bcc address is
 * ever disclosed to the others.
 */
final class MessageMapper {

  /**
   * The payloads, one per recipient, in the order the headers name them.
   *
   * @param array $message
   *   The formatted message.
   * @param callable|null $warn
   *   Called with a sentence for the log when something is left out: an
   *   invalid From address (the API then uses the account's own sender, as
   *   WordPress does).
   *
   * @return array[]
   *   Payloads for ApiClient::sendEmail().
   *
   * @throws \InvalidArgumentException
   *   No recipient, an invalid recipient or Reply-To address, a line break in
   *   an address header or an attachment that cannot be sent.
   */
  public static function map(array $message, ?callable $warn = NULL): array {
    $headers = $message['headers'] ?? [];
    $recipients = self::recipients($message, $headers);
    if ($recipients === []) {
      throw new \InvalidArgumentException('The message has no recipient.');
    }
    $common = array_filter([
      Contract::EMAIL_FIELD_SUBJECT => self::subject((string) ($message['subject'] ?? ''), $warn),
      Contract::EMAIL_FIELD_CONTENT => (string) ($message['body'] ?? ''),
    ], static fn ($value): bool => $value !== '');
    if (!isset($common[Contract::EMAIL_FIELD_SUBJECT])) {
      throw new \InvalidArgumentException('The message has no subject.');
    }
    $common[Contract::EMAIL_FIELD_CONTENT] ??= '';

    $from = self::siteMailbox(HeaderBag::get($headers, 'From') ?? (string) ($message['from'] ?? ''), 'From', $warn);
    if ($from !== NULL) {
      $common += array_filter([
        Contract::EMAIL_FIELD_FROM => $from->email,
        Contract::EMAIL_FIELD_FROM_NAME => $from->name,
      ], 'strlen');
    }
    $reply_to = self::siteMailbox(HeaderBag::get($headers, 'Reply-To') ?? (string) ($message['reply-to'] ?? ''), 'Reply-To', $warn);
    if ($reply_to !== NULL && $reply_to->email !== '') {
      $common[Contract::EMAIL_FIELD_REPLYTO] = $reply_to->email;
    }
    $attachment = AttachmentPacker::pack((array) ($message['params']['attachments'] ?? []));
    if ($attachment !== NULL) {
      $common[Contract::EMAIL_FIELD_ATTACHMENT] = $attachment;
    }

    return array_map(
      static fn (Address $to): array => [Contract::EMAIL_FIELD_TO => $to->email] + $common,
      $recipients,
    );
  }

  /**
   * Every recipient address once: To first, then Cc, then Bcc.
   *
   * @return \Drupal\sitebeam\Mail\Address[]
   *   The recipients.
   */
  public static function recipients(array $message, array $headers): array {
    $all = [];
    $lists = [
      'To' => (string) ($message['to'] ?? ''),
      'Cc' => HeaderBag::get($headers, 'Cc') ?? '',
      'Bcc' => HeaderBag::get($headers, 'Bcc') ?? '',
    ];
    foreach ($lists as $header => $value) {
      foreach (AddressParser::parseList($value, $header) as $address) {
        $all[strtolower($address->email)] ??= $address;
      }
    }
    return array_values($all);
  }

  /**
   * The subject as one line of at most 998 characters.
   *
   * Line breaks are unfolded to one space and other control characters
   * dropped; a longer subject is shortened, ending with an ellipsis.
   */
  private static function subject(string $subject, ?callable $warn): string {
    if (str_contains($subject, '=?')) {
      $decoded = iconv_mime_decode($subject, ICONV_MIME_DECODE_CONTINUE_ON_ERROR, 'UTF-8');
      $subject = $decoded === FALSE ? $subject : $decoded;
    }
    $subject = (string) preg_replace('/\s*[\r\n]+\s*/', ' ', mb_scrub($subject, 'UTF-8'));
    $subject = trim((string) preg_replace(Contract::SINGLE_LINE_FORBIDDEN_PATTERN, '', $subject));
    if (mb_strlen($subject) <= Contract::LIMIT_SUBJECT_CHARS) {
      return $subject;
    }
    if ($warn !== NULL) {
      $warn(sprintf('The subject has %d characters: it goes out shortened to %d.', mb_strlen($subject), Contract::LIMIT_SUBJECT_CHARS));
    }
    return mb_substr($subject, 0, Contract::LIMIT_SUBJECT_CHARS - 1) . '…';
  }

  /**
   * The From or Reply-To mailbox; an address the contract refuses is left out.
   *
   * Drupal puts the site's address in both. A fresh site's address, such as
   * drupal@localhost, must not stop every site mail, the password reset
   * included: without it the API uses the account's own sender.
   */
  private static function siteMailbox(string $value, string $header, ?callable $warn): ?Address {
    try {
      return self::firstAddress($value, $header);
    }
    catch (InvalidAddressException $e) {
      if ($warn !== NULL) {
        $warn($e->getMessage() . ($header === 'From' ? " The message goes out with the account's own sender." : ' The message goes out without it.'));
      }
      return new Address('', $e->displayName);
    }
  }

  /**
   * The first mailbox of a header value, if any.
   */
  private static function firstAddress(string $value, string $header): ?Address {
    return AddressParser::parseList($value, $header)[0] ?? NULL;
  }

}
