<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contract;
use Psr\Log\LoggerInterface;

/**
 * Sends a prompt through the API client and reads the answer for a visitor.
 */
class ChatPrompter {

  public function __construct(
    protected ApiClient $apiClient,
    protected LoggerInterface $logger,
  ) {}

  /**
   * The model's reply, or why there is none in the protocol's terms.
   *
   * @param string $model
   *   The model.
   * @param string $message
   *   The checked message.
   * @param array $settings
   *   Typed prompt settings (PromptSettings::toSend()).
   */
  public function prompt(string $model, string $message, array $settings): ChatReply|ChatProblem {
    $result = $this->apiClient->prompt($model, $message, $settings);
    $lines = $result->body[Contract::CHAT_RESPONSE_FIELD_RESPONSE] ?? NULL;
    if ($result->isSuccess() && is_array($lines)) {
      $score = $result->body[Contract::CHAT_RESPONSE_FIELD_SCORE] ?? NULL;
      // The API answers 0 for the models without a natural score.
      $scored = !in_array($model, Contract::CHAT_UNSCORED_MODELS, TRUE);
      $lines = array_map(static fn ($line): string => is_scalar($line) ? (string) $line : '', array_values($lines));
      return new ChatReply($model, $lines, $scored && (is_int($score) || is_float($score)) ? $score : NULL);
    }
    if ($result->code() === Contract::ERROR_MODEL_LOADING) {
      // A prompt need not start the load on every instance: ask for it.
      $this->apiClient->loadModel($model);
      return new ChatProblem(ChatProblem::MODEL_LOADING, retryAfter: max(1, $result->retryAfter ?? 1));
    }
    $this->logger->error('Chat prompt to @model not answered by the API: @result', [
      '@model' => $model,
      '@result' => $result->logSummary(),
    ]);
    return match (TRUE) {
      $result->status === 429 => new ChatProblem(ChatProblem::RATE_LIMITED, retryAfter: max(1, $result->retryAfter ?? 60)),
      in_array($result->diagnosis(), [ApiResult::NOT_CONFIGURED, ApiResult::UNSAFE_ADDRESS, ApiResult::PRIVATE_ADDRESS], TRUE),
      in_array($result->status, [401, 403, 405], TRUE),
      $result->code() === Contract::ERROR_MODEL_NOT_FOUND => new ChatProblem(ChatProblem::NOT_CONFIGURED),
      default => new ChatProblem(ChatProblem::UPSTREAM_FAILED),
    };
  }

}
