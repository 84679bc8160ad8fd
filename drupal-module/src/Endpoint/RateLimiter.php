<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Component\Utility\Crypt;
use Drupal\Core\KeyValueStore\KeyValueExpirableFactoryInterface;
use Drupal\Core\Lock\LockBackendInterface;
use Drupal\Core\Site\Settings;
use Symfony\Component\HttpFoundation\Request;

/**
 * Posts per visitor in a sliding window, as the protocols count them.
 *
 * Core's flood control cannot say when the oldest post leaves the window,
 * which Retry-After needs: the post times are kept in an expirable store.
 * Each endpoint has its own collection, so its own allowance. A visitor's
 * count is read and written under a lock: without it, posts arriving together
 * all read the same count and all pass. The store knows a visitor by an HMAC
 * of their address under the site's hash salt: a copy of the database names
 * no one.
 */
class RateLimiter {

  /**
   * Seconds a lock outlives a request that died holding it.
   */
  private const LOCK_TIMEOUT = 5.0;

  public function __construct(
    protected KeyValueExpirableFactoryInterface $keyValueExpirable,
    protected TimeInterface $time,
    protected LockBackendInterface $lock,
    protected string $collection,
  ) {}

  /**
   * Counts a post; returns Retry-After seconds when over the limit.
   *
   * A post refused for the rate itself is not counted: waiting Retry-After
   * seconds is always enough.
   */
  public function hit(Request $request, int $limit, int $window): ?int {
    $visitor = Crypt::hmacBase64(VisitorAddress::of($request), Settings::getHashSalt());
    $lock_name = 'sitebeam.rate_limiter:' . $this->collection . ':' . $visitor;
    if (!$this->acquire($lock_name)) {
      // Still counting this visitor's other posts after the wait: a burst.
      return 1;
    }
    try {
      return $this->count($visitor, $limit, $window);
    }
    finally {
      $this->lock->release($lock_name);
    }
  }

  /**
   * The lock on a visitor's count, waiting a little for another post's.
   */
  protected function acquire(string $lock_name): bool {
    // Counting takes milliseconds: a post that waits two seconds for the lock
    // is one of many sent at once.
    return $this->lock->acquire($lock_name, self::LOCK_TIMEOUT)
      || (!$this->lock->wait($lock_name, 2) && $this->lock->acquire($lock_name, self::LOCK_TIMEOUT));
  }

  /**
   * Counts a post in the visitor's window, the lock held.
   */
  protected function count(string $visitor, int $limit, int $window): ?int {
    $store = $this->keyValueExpirable->get($this->collection);
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
