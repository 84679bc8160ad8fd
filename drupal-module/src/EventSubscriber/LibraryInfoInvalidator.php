<?php

declare(strict_types=1);

namespace Drupal\sitebeam\EventSubscriber;

use Drupal\Core\Cache\CacheTagsInvalidatorInterface;
use Drupal\Core\Config\ConfigCrudEvent;
use Drupal\Core\Config\ConfigEvents;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;

/**
 * Rebuilds library definitions when the tracker's data-* attributes change.
 *
 * The attributes live in the cached library definition (see
 * TrackerHooks::libraryInfoAlter()), so a save through the form, a config
 * import or drush must all refresh it.
 */
class LibraryInfoInvalidator implements EventSubscriberInterface {

  public function __construct(
    protected CacheTagsInvalidatorInterface $cacheTagsInvalidator,
  ) {}

  public static function getSubscribedEvents(): array {
    return [
      ConfigEvents::SAVE => 'onConfigChange',
      ConfigEvents::DELETE => 'onConfigChange',
    ];
  }

  public function onConfigChange(ConfigCrudEvent $event): void {
    $config = $event->getConfig();
    if ($config->getName() !== 'sitebeam.settings') {
      return;
    }
    foreach (['base_url', 'website', 'tracker.respect_dnt'] as $key) {
      if ($event->isChanged($key)) {
        $this->cacheTagsInvalidator->invalidateTags(['library_info']);
        return;
      }
    }
  }

}
