<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\sitebeam\Contract;

/**
 * A model's answer: its lines as they came and its score, if it has one.
 */
final class ChatReply {

  /**
   * Constructs a reply.
   *
   * @param string $model
   *   The model that answered.
   * @param string[] $lines
   *   The API's lines.
   * @param float|int|null $score
   *   The API's score; NULL for the models without a natural score.
   */
  public function __construct(
    public readonly string $model,
    public readonly array $lines,
    public readonly float|int|null $score,
  ) {}

  /**
   * The protocol's success answer.
   */
  public function toArray(): array {
    $answer = [
      Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK,
      Contract::CHAT_RESPONSE_FIELD_MODEL => $this->model,
      Contract::CHAT_RESPONSE_FIELD_RESPONSE => $this->lines,
    ];
    if ($this->score !== NULL) {
      $answer[Contract::CHAT_RESPONSE_FIELD_SCORE] = $this->score;
    }
    return $answer;
  }

}
