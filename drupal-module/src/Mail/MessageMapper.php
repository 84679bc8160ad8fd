<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\sitebeam\Api\ApiClient;

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
   * @return array[]
   *   Payloads for ApiClient::sendEmail().
   *
   * @throws \InvalidArgumentException
   *   No recipient, an invalid address, a line break in an address header or
   *   an attachment that cannot be sent.
   */
  public static function map(array $message): array {
    $headers = $message['headers'] ?? [];
    $recipients = self::recipients($message, $headers);
    if ($recipients === []) {
      throw new \InvalidArgumentException('The message has no recipient.');
    }
    $common = array_filter([
      ApiClient::FIELD_SUBJECT => self::subject((string) ($message['subject'] ?? '')),
      ApiClient::FIELD_CONTENT => (string) ($message['body'] ?? ''),
    ], static fn ($value): bool => $value !== '');
    if (!isset($common[ApiClient::FIELD_SUBJECT])) {
      throw new \InvalidArgumentException('The message has no subject.');
    }
    $common[ApiClient::FIELD_CONTENT] ??= '';

    $from = self::firstAddress(HeaderBag::get($headers, 'From') ?? (string) ($message['from'] ?? ''), 'From');
    if ($from !== NULL) {
      $common[ApiClient::FIELD_FROM] = $from->email;
      if ($from->name !== '') {
        $common[ApiClient::FIELD_FROM_NAME] = $from->name;
      }
    }
    $reply_to = self::firstAddress(HeaderBag::get($headers, 'Reply-To') ?? (string) ($message['reply-to'] ?? ''), 'Reply-To');
    if ($reply_to !== NULL) {
      $common[ApiClient::FIELD_REPLY_TO] = $reply_to->email;
    }
    $attachment = AttachmentPacker::pack((array) ($message['params']['attachments'] ?? []));
    if ($attachment !== NULL) {
      $common[ApiClient::FIELD_ATTACHMENT] = $attachment;
    }

    return array_map(
      static fn (Address $to): array => [ApiClient::FIELD_TO => $to->email] + $common,
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
   * Subjects are single lines of at most 998 characters for the API.
   */
  private static function subject(string $subject): string {
    if (str_contains($subject, '=?')) {
      $decoded = iconv_mime_decode($subject, ICONV_MIME_DECODE_CONTINUE_ON_ERROR, 'UTF-8');
      $subject = $decoded === FALSE ? $subject : $decoded;
    }
    $subject = trim((string) preg_replace('/\s*[\r\n]+\s*/', ' ', $subject));
    return mb_substr($subject, 0, ApiClient::SUBJECT_MAX_LENGTH);
  }

  private static function firstAddress(string $value, string $header): ?Address {
    return AddressParser::parseList($value, $header)[0] ?? NULL;
  }

}
