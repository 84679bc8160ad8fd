<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Outbox;

/**
 * The outbox holds as many mails or bytes as its settings allow.
 */
final class OutboxFullException extends \RuntimeException {}
