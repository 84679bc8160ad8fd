<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Core\Hook\Attribute\Hook;
use Drupal\Core\Routing\RouteMatchInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;

/**
 * The module's page in the Help section.
 */
class HelpHooks {

  use StringTranslationTrait;

  public function __construct(TranslationInterface $string_translation) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * Implements hook_help().
   */
  #[Hook('help')]
  public function help(string $route_name, RouteMatchInterface $route_match): ?string {
    if ($route_name !== 'help.page.sitebeam') {
      return NULL;
    }
    $settings = Url::fromRoute('sitebeam.settings')->toString();
    $uses = [
      [
        $this->t('Connecting'),
        $this->t("Put the API token in settings.php as <code>\$settings['sitebeam_api_token']</code> (it then stays out of configuration exports), and the instance address on the <a href=\":url\">Sitebeam settings page</a>.", [':url' => $settings]),
      ],
      [
        $this->t('Tracking visits'),
        $this->t('The tracker is added to every page except administration pages, the paths and the roles you exclude. Each view sends the Sitebeam instance the page address (without its query string, except campaign parameters) and the referrer; the instance records the time, the visitor\'s IP address and the place it locates, and the browser, system and device named by the user agent. No cookie is read or set. With "Wait for consent", nothing is sent until your consent manager calls <code>sitebeam.consent(true)</code>.'),
      ],
      [
        $this->t('Sending site mail'),
        $this->t('Turn on "Send all site mail through the API" to make Sitebeam the default mailer; turning it off restores the previous one.'),
      ],
      [
        $this->t('Contact form'),
        $this->t('Place the "Sitebeam contact form" block in a region. Messages go to the recipient set on the settings page; visitors never choose it. With "Ask for consent", visitors must tick a box with your text (and a link to your privacy policy) before a message is sent, and the mail you receive says they agreed.'),
      ],
      [
        $this->t('Chat'),
        $this->t('Switch the chat on and choose the models visitors may use on the settings page, then place the "Sitebeam chat" block. A daily limit caps the messages all visitors together send to the models each day (UTC), and "Ask for consent" adds the same checkbox as the contact form. The <a href=":console">chat console</a> lets the site team load and prompt any model of the instance.', [':console' => Url::fromRoute('sitebeam.chat_console')->toString()]),
      ],
    ];
    $html = '<h2>' . $this->t('About') . '</h2><p>' . $this->t('Sitebeam connects the site to a Sitebeam API instance: a visit tracker on every public page, all site mail sent through the API, a contact form block whose messages reach a fixed recipient, and a chat block with the models you choose.') . '</p>';
    $html .= '<h2>' . $this->t('Uses') . '</h2><dl>';
    foreach ($uses as [$term, $definition]) {
      $html .= '<dt>' . $term . '</dt><dd>' . $definition . '</dd>';
    }
    return $html . '</dl>';
  }

}
