<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\Refusal;

/**
 * Why a contact post is refused, in the terms of the contact protocol.
 */
final class ContactProblem extends Refusal {

  public const INVALID_FIELD = Contract::CONTACT_ERROR_INVALID_FIELD;
  public const INVALID_REQUEST = Contract::CONTACT_ERROR_INVALID_REQUEST;
  public const SPAM_SUSPECTED = Contract::CONTACT_ERROR_SPAM_SUSPECTED;
  public const FORBIDDEN_ORIGIN = Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN;
  public const METHOD_NOT_ALLOWED = Contract::CONTACT_ERROR_METHOD_NOT_ALLOWED;
  public const PAYLOAD_TOO_LARGE = Contract::CONTACT_ERROR_PAYLOAD_TOO_LARGE;
  public const UNSUPPORTED_MEDIA_TYPE = Contract::CONTACT_ERROR_UNSUPPORTED_MEDIA_TYPE;
  public const RATE_LIMITED = Contract::CONTACT_ERROR_RATE_LIMITED;
  public const NOT_CONFIGURED = Contract::CONTACT_ERROR_NOT_CONFIGURED;
  public const UPSTREAM_FAILED = Contract::CONTACT_ERROR_UPSTREAM_FAILED;

  /**
   * {@inheritdoc}
   */
  protected static function statuses(): array {
    return Contract::CONTACT_ERROR_STATUS;
  }

}
