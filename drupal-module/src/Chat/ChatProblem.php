<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\Refusal;

/**
 * Why a chat request is refused, in the terms of the chat protocol.
 */
final class ChatProblem extends Refusal {

  public const INVALID_FIELD = Contract::CHAT_ERROR_INVALID_FIELD;
  public const SPAM_SUSPECTED = Contract::CHAT_ERROR_SPAM_SUSPECTED;
  public const FORBIDDEN_ORIGIN = Contract::CHAT_ERROR_FORBIDDEN_ORIGIN;
  public const METHOD_NOT_ALLOWED = Contract::CHAT_ERROR_METHOD_NOT_ALLOWED;
  public const PAYLOAD_TOO_LARGE = Contract::CHAT_ERROR_PAYLOAD_TOO_LARGE;
  public const UNSUPPORTED_MEDIA_TYPE = Contract::CHAT_ERROR_UNSUPPORTED_MEDIA_TYPE;
  public const RATE_LIMITED = Contract::CHAT_ERROR_RATE_LIMITED;
  public const DAILY_LIMIT_REACHED = Contract::CHAT_ERROR_DAILY_LIMIT_REACHED;
  public const UPSTREAM_FAILED = Contract::CHAT_ERROR_UPSTREAM_FAILED;
  public const MODEL_LOADING = Contract::CHAT_ERROR_MODEL_LOADING;
  public const NOT_CONFIGURED = Contract::CHAT_ERROR_NOT_CONFIGURED;

  /**
   * {@inheritdoc}
   */
  protected static function statuses(): array {
    return Contract::CHAT_ERROR_STATUS;
  }

}
