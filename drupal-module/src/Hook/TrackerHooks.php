<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Hook;

use Drupal\Core\Cache\CacheableMetadata;
use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Extension\ModuleHandlerInterface;
use Drupal\Core\Hook\Attribute\Hook;
use Drupal\sitebeam\Tracker\TrackerAttributes;
use Drupal\sitebeam\Tracker\TrackerVisibility;
use Symfony\Component\HttpFoundation\RequestStack;

/**
 * Puts the tracker and its noscript pixel on the pages that are tracked.
 */
class TrackerHooks {

  public function __construct(
    protected ConfigFactoryInterface $configFactory,
    protected TrackerVisibility $visibility,
    protected RequestStack $requestStack,
    protected ModuleHandlerInterface $moduleHandler,
  ) {}

  /**
   * Implements hook_page_attachments().
   */
  #[Hook('page_attachments')]
  public function pageAttachments(array &$attachments): void {
    $cacheability = $this->cacheability();
    if ($this->visibility->shouldTrack()) {
      $attachments['#attached']['library'][] = 'sitebeam/tracker';
    }
    $cacheability->merge(CacheableMetadata::createFromRenderArray($attachments))->applyTo($attachments);
  }

  /**
   * Implements hook_page_top().
   *
   * The pixel sits in the body: an img is not allowed in the head's noscript.
   */
  #[Hook('page_top')]
  public function pageTop(array &$page_top): void {
    $config = $this->configFactory->get('sitebeam.settings');
    $host = (string) $this->requestStack->getCurrentRequest()?->getHost();
    $tracker = TrackerAttributes::fromSettings($config->getRawData(), $host);
    $page_top['sitebeam_pixel'] = [];
    if ($config->get('tracker.noscript') && $tracker->website !== '' && $this->visibility->shouldTrack()) {
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
          'referrerpolicy' => 'no-referrer-when-downgrade',
        ],
      ];
    }
    $this->cacheability()->addCacheContexts(['url.site'])->applyTo($page_top['sitebeam_pixel']);
  }

  /**
   * Implements hook_library_info_alter().
   *
   * Library definitions are cached: LibraryInfoInvalidator refreshes them
   * when the settings these attributes come from change.
   */
  #[Hook('library_info_alter')]
  public function libraryInfoAlter(array &$libraries, string $extension): void {
    if ($extension !== 'sitebeam' || !isset($libraries['tracker']['js'])) {
      return;
    }
    $attributes = TrackerAttributes::fromSettings($this->configFactory->get('sitebeam.settings')->getRawData())->dataAttributes();
    $this->moduleHandler->alter('sitebeam_tracker_attributes', $attributes);
    foreach ($libraries['tracker']['js'] as &$options) {
      $options['attributes'] = $attributes + ($options['attributes'] ?? []);
    }
  }

  protected function cacheability(): CacheableMetadata {
    return CacheableMetadata::createFromObject($this->configFactory->get('sitebeam.settings'))
      ->addCacheContexts(['user.roles', 'url.path']);
  }

}
