<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\KeyValueStore\KeyValueExpirableFactoryInterface;
use Symfony\Component\HttpFoundation\Request;

/**
 * Posts per visitor in a sliding window, as the protocols count them.
 *
 * Core's flood control cannot say when the oldest post leaves the window,
 * which Retry-After needs: the post times are kept in an expirable store.
 * Each endpoint has its own collection, so its own allowance.
 */
class RateLimiter {

  public function __construct(
    protected KeyValueExpirableFactoryInterface $keyValueExpirable,
    protected TimeInterface $time,
    protected string $collection,
  ) {}

  /**
   * Counts a post; returns Retry-After seconds when over the limit.
   *
   * A post refused for the rate itself is not counted: waiting Retry-After
   * seconds is always enough.
   */
  public function hit(Request $request, int $limit, int $window): ?int {
    $store = $this->keyValueExpirable->get($this->collection);
    $visitor = VisitorAddress::of($request);
    $now = $this->time->getCurrentMicroTime();
    $posts = array_values(array_filter(
      (array) $store->get($visitor, []),
      static fn (float $time): bool => $time > $now - $window,
    ));
    if (count($posts) >= $limit) {
      return max(1, (int) ceil($posts[count($posts) - $limit] + $window - $now));
    }
    $posts[] = $now;
    $store->setWithExpire($visitor, $posts, $window);
    return NULL;
  }

}
