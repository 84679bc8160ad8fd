<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Core\Hook\Attribute\Hook;

/**
 * Theme hooks of the contact form and chat.
 */
class ThemeHooks {

  /**
   * Implements hook_theme().
   */
  #[Hook('theme')]
  public function theme(): array {
    return [
      'sitebeam_contact_form' => [
        'variables' => [
          'action' => '',
          'id_prefix' => 'sitebeam-contact',
          'sent' => FALSE,
          'queued' => FALSE,
          'token' => [],
          'ticket' => [],
          'texts' => NULL,
          'values' => [],
          'invalid' => '',
          'back' => [],
          'consent' => NULL,
        ],
      ],
      'sitebeam_contact_page' => [
        'variables' => [
          'form' => [],
          'error' => '',
          'back_url' => '',
          'lang' => 'en',
        ],
      ],
      'sitebeam_chat' => [
        'variables' => [
          'action' => '',
          'models' => [],
          'id_prefix' => 'sitebeam-chat',
          'texts' => NULL,
          'consent' => NULL,
        ],
      ],
      'sitebeam_chat_page' => [
        'variables' => [
          'action' => '',
          'models' => [],
          'model' => '',
          'reply' => NULL,
          'asked' => '',
          'error' => '',
          'message' => '',
          'consent' => NULL,
          'consent_given' => FALSE,
          'invalid' => '',
          'back_url' => '',
          'lang' => 'en',
        ],
      ],
    ];
  }

}
