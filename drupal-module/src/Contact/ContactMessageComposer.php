<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Mail\BodyFormatter;

/**
 * Builds the /v1/email payload of a contact message.
 *
 * The sender stays the account's own address (DMARC): the visitor goes into
 * Reply-To and, so that nothing is lost where Reply-To is ignored, into the
 * body, where every visitor value is escaped.
 */
final class ContactMessageComposer {

  /**
   * The form field each payload field carries the visitor's words from.
   */
  private const VISITOR_FIELDS = [
    Contract::EMAIL_FIELD_REPLYTO => Contract::CONTACT_FIELD_EMAIL,
    Contract::EMAIL_FIELD_SUBJECT => Contract::CONTACT_FIELD_SUBJECT,
    Contract::EMAIL_FIELD_CONTENT => Contract::CONTACT_FIELD_MESSAGE,
  ];

  /**
   * The form field behind a refused payload field; NULL for the site's own.
   */
  public static function visitorField(string $payload_field): ?string {
    return self::VISITOR_FIELDS[$payload_field] ?? NULL;
  }

  /**
   * The /v1/email payload of a contact message to the recipient.
   */
  public static function compose(ContactSubmission $submission, string $recipient, string $site_name): array {
    $subject = $submission->subject !== '' ? $submission->subject : 'Message from ' . $submission->name;
    $rows = [
      'Name' => BodyFormatter::escape($submission->name),
      'Email' => BodyFormatter::escape($submission->email),
      'Subject' => BodyFormatter::escape($submission->subject),
    ];
    $content = '<p>' . BodyFormatter::escape(sprintf('A visitor of %s wrote through the contact form:', $site_name)) . "</p>\n<ul>\n";
    foreach ($rows as $label => $value) {
      $content .= '<li><strong>' . $label . ':</strong> ' . $value . "</li>\n";
    }
    $content .= "</ul>\n<p>" . nl2br(BodyFormatter::escape($submission->message), FALSE) . '</p>';
    if ($submission->agreedTo !== NULL) {
      $content .= "\n<p>" . BodyFormatter::escape($submission->agreedTo->mailLine()) . '</p>';
    }

    return [
      Contract::EMAIL_FIELD_TO => $recipient,
      Contract::EMAIL_FIELD_FROM_NAME => $site_name,
      Contract::EMAIL_FIELD_REPLYTO => $submission->email,
      Contract::EMAIL_FIELD_SUBJECT => mb_substr(sprintf('[%s] %s', $site_name, $subject), 0, Contract::LIMIT_SUBJECT_CHARS),
      Contract::EMAIL_FIELD_CONTENT => $content,
    ];
  }

}
