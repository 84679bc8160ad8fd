<?php

declare(strict_types=1);

namespace Drupal\sitebeam_test\EventSubscriber;

use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpKernel\Event\ResponseEvent;
use Symfony\Component\HttpKernel\KernelEvents;

/**
 * A page whose policy lets images reach any host, and fetch only the site.
 *
 * The Content-Security-Policy many hosts and themes set; asked for by
 * ?sitebeam_test_csp=images, so that the tracker's pixel fallback can be
 * tested on a real page.
 */
class ImageOnlyPolicySubscriber implements EventSubscriberInterface {

  /**
   * {@inheritdoc}
   */
  public static function getSubscribedEvents(): array {
    return [KernelEvents::RESPONSE => 'setPolicy'];
  }

  /**
   * Sets the image-only policy on the asking page.
   */
  public function setPolicy(ResponseEvent $event): void {
    if ($event->getRequest()->query->get('sitebeam_test_csp') === 'images') {
      $event->getResponse()->headers->set('Content-Security-Policy', "connect-src 'self'; img-src * data:");
    }
  }

}
