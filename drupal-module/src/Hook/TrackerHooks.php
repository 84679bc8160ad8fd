<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Core\Asset\AssetQueryStringInterface;
use Drupal\Core\Cache\CacheableMetadata;
use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Extension\ModuleExtensionList;
use Drupal\Core\Extension\ModuleHandlerInterface;
use Drupal\Core\File\FileUrlGeneratorInterface;
use Drupal\Core\Hook\Attribute\Hook;
use Drupal\sitebeam\Tracker\TrackerAttributes;
use Drupal\sitebeam\Tracker\TrackerVisibility;
use Symfony\Component\HttpFoundation\RequestStack;

/**
 * Puts the tracker and its noscript pixel on the pages that are tracked.
 *
 * Both are built per page from sitebeam.settings as configuration overrides
 * (settings.php, other modules) leave it, and carry its cacheability.
 */
class TrackerHooks {

  /**
   * The key of the tracker's tag among the page's html_head elements.
   */
  public const HEAD_KEY = 'sitebeam_tracker';

  public function __construct(
    protected ConfigFactoryInterface $configFactory,
    protected TrackerVisibility $visibility,
    protected RequestStack $requestStack,
    protected ModuleHandlerInterface $moduleHandler,
    protected ModuleExtensionList $moduleList,
    protected FileUrlGeneratorInterface $fileUrlGenerator,
    protected AssetQueryStringInterface $assetQueryString,
  ) {}

  /**
   * Implements hook_page_attachments().
   *
   * The tag is an html_head element rather than a library: its data-*
   * attributes vary with the configuration, which library definitions (cached
   * once for all pages) cannot.
   */
  #[Hook('page_attachments')]
  public function pageAttachments(array &$attachments): void {
    if ($this->visibility->shouldTrack()) {
      $attributes = TrackerAttributes::fromSettings($this->settings())->dataAttributes();
      $this->moduleHandler->alter('sitebeam_tracker_attributes', $attributes);
      $attachments['#attached']['html_head'][] = [
        [
          '#type' => 'html_tag',
          '#tag' => 'script',
          '#value' => '',
          '#attributes' => ['src' => $this->scriptUrl(), 'defer' => TRUE] + $attributes,
        ],
        self::HEAD_KEY,
      ];
    }
    $this->cacheability()->merge(CacheableMetadata::createFromRenderArray($attachments))->applyTo($attachments);
  }

  /**
   * Implements hook_page_top().
   *
   * The pixel sits in the body: an img is not allowed in the head's noscript.
   * It cannot wait for consent, so it is left out while consent is required.
   */
  #[Hook('page_top')]
  public function pageTop(array &$page_top): void {
    $settings = $this->settings();
    $host = (string) $this->requestStack->getCurrentRequest()?->getHost();
    $tracker = TrackerAttributes::fromSettings($settings, $host);
    $page_top['sitebeam_pixel'] = [];
    if (!empty($settings['tracker']['noscript']) && !$tracker->waitForConsent && $tracker->website !== '' && $this->visibility->shouldTrack()) {
      $page_top['sitebeam_pixel'] = [
        '#type' => 'html_tag',
        '#tag' => 'img',
        '#noscript' => TRUE,
        '#attributes' => [
          'src' => $tracker->pixelUrl(),
          'alt' => '',
          'width' => '1',
          'height' => '1',
          'style' => 'display:none',
          'referrerpolicy' => $tracker->pixelReferrerPolicy(),
          // As the tag's pixel: no cookies of the instance's site.
          'crossorigin' => 'anonymous',
        ],
      ];
    }
    $this->cacheability()->addCacheContexts(['url.site'])->applyTo($page_top['sitebeam_pixel']);
  }

  /**
   * The settings with every override applied.
   */
  protected function settings(): array {
    return (array) $this->configFactory->get('sitebeam.settings')->get();
  }

  /**
   * The built tracker, with the query string that changes on cache clears.
   */
  protected function scriptUrl(): string {
    $path = $this->moduleList->getPath('sitebeam') . '/js/sitebeam.min.js';
    return $this->fileUrlGenerator->generateString($path) . '?' . $this->assetQueryString->get();
  }

  /**
   * Varies by role and path (visibility) and by the settings and overrides.
   */
  protected function cacheability(): CacheableMetadata {
    return CacheableMetadata::createFromObject($this->configFactory->get('sitebeam.settings'))
      ->addCacheContexts(['user.roles', 'url.path']);
  }

}
