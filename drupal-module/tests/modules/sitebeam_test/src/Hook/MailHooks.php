<?php

declare(strict_types=1);

namespace Drupal\sitebeam_test\Hook;

use Drupal\Core\Hook\Attribute\Hook;

/**
 * A "probe" mail whose subject, body and headers come from the params.
 */
class MailHooks {

  /**
   * Implements hook_mail().
   */
  #[Hook('mail')]
  public function mail(string $key, array &$message, array $params): void {
    if ($key !== 'probe') {
      return;
    }
    $message['subject'] = $params['subject'];
    $message['body'] = $params['body'];
    $message['headers'] = ($params['headers'] ?? []) + $message['headers'];
  }

}
