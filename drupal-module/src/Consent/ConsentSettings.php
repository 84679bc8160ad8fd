<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Consent;

use Drupal\Core\Cache\CacheableDependencyInterface;
use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Url;

/**
 * The owner's consent checkboxes, settings.php overrides included.
 */
class ConsentSettings {

  public const CONFIG = 'sitebeam.settings';

  public function __construct(protected ConfigFactoryInterface $configFactory) {}

  /**
   * The contact form's checkbox; NULL when the owner asks for no consent.
   */
  public function contact(): ?ConsentCheckbox {
    return $this->checkbox('contact');
  }

  /**
   * The chat's checkbox; NULL when the owner asks for no consent.
   */
  public function chat(): ?ConsentCheckbox {
    return $this->checkbox('chat');
  }

  /**
   * What a render array showing a checkbox depends on.
   */
  public function cacheability(): CacheableDependencyInterface {
    return $this->configFactory->get(self::CONFIG);
  }

  /**
   * The checkbox of one part of sitebeam.settings ('contact' or 'chat').
   *
   * On only with a text: without one a visitor would agree to nothing.
   */
  protected function checkbox(string $part): ?ConsentCheckbox {
    $consent = (array) $this->configFactory->get(self::CONFIG)->get($part . '.consent');
    $label = trim((string) ($consent['label'] ?? ''));
    if (empty($consent['enabled']) || $label === '') {
      return NULL;
    }
    $policy = (string) ($consent['policy_url'] ?? '');
    return new ConsentCheckbox($label, self::policyHref($policy, FALSE), self::policyHref($policy, TRUE));
  }

  /**
   * The kind of a policy address: 'path' (of this site), 'https', or NULL.
   *
   * Never '//host' or '/\host', which browsers read as another host.
   */
  public static function policyUrlKind(string $url): ?string {
    return match (TRUE) {
      preg_match('/^\/(?![\/\\\\])[^\s\\\\]*$/D', $url) === 1 => 'path',
      preg_match('/^https:\/\/[^\s\/?#\\\\]+[^\s\\\\]*$/Di', $url) === 1 => 'https',
      default => NULL,
    };
  }

  /**
   * The policy's link; '' for none or for a value the schema would refuse.
   *
   * A settings.php override skips the schema's validation.
   */
  protected static function policyHref(string $url, bool $absolute): string {
    return match (self::policyUrlKind($url)) {
      'path' => Url::fromUserInput($url, ['absolute' => $absolute])->toString(),
      'https' => $url,
      default => '',
    };
  }

}
