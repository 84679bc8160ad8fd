<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Chat;

/**
 * A visitor's checked message and the allowed model it goes to.
 */
final class ChatPrompt {

  public function __construct(
    public readonly string $model,
    public readonly string $message,
  ) {}

}
