<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\sitebeam\Contract;

/**
 * The owner's chat settings, settings.php overrides included.
 */
class ChatSettings {

  public const CONFIG = 'sitebeam.settings';

  /**
   * A model identifier, as the protocol allows it.
   */
  public const MODEL_PATTERN = '/^[A-Za-z0-9_.-]+$/D';

  /**
   * The daily chat limit of a site that sets none.
   *
   * A new site is then never an open model proxy on the owner's quota; no
   * limit (0) is a choice the owner makes on purpose.
   */
  public const DEFAULT_DAILY_LIMIT = Contract::CHAT_DAILY_LIMIT;

  public function __construct(protected ConfigFactoryInterface $configFactory) {}

  /**
   * The models visitors may use, the first being the default; none when off.
   *
   * @return string[]
   *   Model identifiers.
   */
  public function models(): array {
    $chat = $this->chat();
    if (empty($chat['enabled'])) {
      return [];
    }
    return array_values(array_unique(self::identifiers((array) ($chat['models'] ?? []))));
  }

  /**
   * The prompt settings sent with every visitor's message.
   */
  public function promptSettings(): array {
    return PromptSettings::toSend((array) ($this->chat()['settings'] ?? []));
  }

  /**
   * Prompts one visitor may send per window.
   */
  public function rateLimit(): int {
    return max(1, (int) ($this->chat()['flood_limit'] ?? Contract::CHAT_RATE_LIMIT_COUNT));
  }

  /**
   * The rate limit's window, in seconds.
   */
  public function rateWindow(): int {
    return max(1, (int) ($this->chat()['flood_window'] ?? Contract::CHAT_RATE_LIMIT_WINDOW_S));
  }

  /**
   * Messages the whole site may send to the model in a UTC day; NULL: no cap.
   *
   * The owner's 0 means no cap; a value not set yet (a site whose updates
   * have not run) is the default.
   */
  public function dailyLimit(): ?int {
    $limit = (int) ($this->chat()['daily_limit'] ?? self::DEFAULT_DAILY_LIMIT);
    return $limit <= 0 ? NULL : $limit;
  }

  /**
   * The values that are model identifiers, in their order.
   *
   * @return string[]
   *   Identifiers.
   */
  public static function identifiers(array $values): array {
    return array_values(array_filter($values, static fn ($model): bool => is_string($model) && preg_match(self::MODEL_PATTERN, $model) === 1));
  }

  /**
   * The chat part of sitebeam.settings.
   */
  protected function chat(): array {
    return (array) $this->configFactory->get(self::CONFIG)->get('chat');
  }

}
