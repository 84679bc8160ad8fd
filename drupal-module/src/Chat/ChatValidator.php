<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\sitebeam\Consent\ConsentCheckbox;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Text\ControlCharacters;

/**
 * The field rules of the chat protocol (contract/chat-protocol.md).
 */
final class ChatValidator {

  /**
   * Checks a decoded post: the honeypot, the message, the model, the consent.
   *
   * Anything else posted (settings, hidden inputs) is ignored.
   *
   * @param array $input
   *   The decoded body.
   * @param string[] $models
   *   The allowed models, the first being the default.
   * @param \Drupal\sitebeam\Consent\ConsentCheckbox|null $consent
   *   The checkbox the visitor must have ticked; NULL when none is asked for.
   */
  public static function validate(array $input, array $models, ?ConsentCheckbox $consent = NULL): ChatPrompt|ChatProblem {
    $honeypot = $input[Contract::CHAT_FIELD_HONEYPOT] ?? '';
    if ($honeypot !== '') {
      return new ChatProblem(ChatProblem::SPAM_SUSPECTED);
    }
    $message = $input[Contract::CHAT_FIELD_MESSAGE] ?? NULL;
    if (!is_string($message) || !mb_check_encoding($message, 'UTF-8') || !ControlCharacters::isCleanMultiLine($message)) {
      return new ChatProblem(ChatProblem::INVALID_FIELD, Contract::CHAT_FIELD_MESSAGE);
    }
    $message = (string) preg_replace('/^\s+|\s+$/uD', '', $message);
    if ($message === '' || mb_strlen($message, 'UTF-8') > Contract::CHAT_MESSAGE_MAX_CHARS) {
      return new ChatProblem(ChatProblem::INVALID_FIELD, Contract::CHAT_FIELD_MESSAGE);
    }
    $model = $input[Contract::CHAT_FIELD_MODEL] ?? '';
    if ($model === '') {
      $model = (string) reset($models);
    }
    elseif (!is_string($model) || !in_array($model, $models, TRUE)) {
      return new ChatProblem(ChatProblem::INVALID_FIELD, Contract::CHAT_FIELD_MODEL);
    }
    if ($consent !== NULL && !ConsentCheckbox::isGiven($input[Contract::CHAT_FIELD_CONSENT] ?? NULL)) {
      return new ChatProblem(ChatProblem::INVALID_FIELD, Contract::CHAT_FIELD_CONSENT);
    }
    return new ChatPrompt($model, $message);
  }

}
