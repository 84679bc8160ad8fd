<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Tracker;

use Drupal\sitebeam\Contract;

/**
 * The tracker tag's data-* attributes and the noscript pixel address.
 *
 * The names are the snippet's (issue 3): data-api, data-website,
 * data-respect-dnt, data-consent and data-keep-query.
 */
final class TrackerAttributes {

  public function __construct(
    public readonly string $baseUrl,
    public readonly string $website,
    public readonly bool $respectDoNotTrack,
    public readonly bool $waitForConsent = FALSE,
    public readonly string $keptQuery = '',
  ) {}

  /**
   * Reads sitebeam.settings values.
   *
   * @param array $settings
   *   The sitebeam.settings data.
   * @param string $default_website
   *   Used when no website name is set: the request host for the pixel, or ''
   *   for the script, which then falls back to location.hostname itself.
   */
  public static function fromSettings(array $settings, string $default_website = ''): self {
    $website = trim((string) ($settings['website'] ?? ''));
    return new self(
      rtrim(trim((string) ($settings['base_url'] ?? '')), '/'),
      $website === '' ? $default_website : $website,
      (bool) ($settings['tracker']['respect_dnt'] ?? TRUE),
      (bool) ($settings['tracker']['wait_for_consent'] ?? FALSE),
      // A settings.php value that is not a list of names keeps the tag's
      // default, the campaign parameters, rather than more.
      KeptQuery::normalize((string) ($settings['tracker']['keep_query'] ?? '')) ?? '',
    );
  }

  /**
   * True when an instance address is set.
   */
  public function isUsable(): bool {
    return $this->baseUrl !== '';
  }

  /**
   * The data-* attributes of the tracker's script tag.
   *
   * @return array<string, string>
   *   Attribute name => value.
   */
  public function dataAttributes(): array {
    $attributes = [Contract::TRACKER_ATTR_API => $this->baseUrl];
    if ($this->website !== '') {
      $attributes[Contract::TRACKER_ATTR_WEBSITE] = $this->website;
    }
    if (!$this->respectDoNotTrack) {
      $attributes[Contract::TRACKER_ATTR_RESPECT_DNT] = 'false';
    }
    if ($this->waitForConsent) {
      $attributes[Contract::TRACKER_ATTR_CONSENT] = '';
    }
    if ($this->keptQuery !== '') {
      $attributes[Contract::TRACKER_ATTR_KEEP_QUERY] = $this->keptQuery;
    }
    return $attributes;
  }

  /**
   * The address of the hidden image for visitors without JavaScript.
   */
  public function pixelUrl(): string {
    return $this->baseUrl . Contract::PATH_TRACKER_IMG_PREFIX . rawurlencode($this->website);
  }

  /**
   * The pixel's referrer policy, as the tag's own pixel sets it.
   *
   * An image cannot choose the URL it reports: the page's origin only,
   * unless the site keeps every parameter (then the tag's default policy).
   */
  public function pixelReferrerPolicy(): string {
    return $this->keptQuery === KeptQuery::ALL ? 'no-referrer-when-downgrade' : 'origin';
  }

}
