<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\KeyValueStore\KeyValueExpirableFactoryInterface;
use Symfony\Component\HttpFoundation\Request;

/**
 * Posts per visitor in a sliding window, as the contact protocol counts them.
 *
 * Core's flood control cannot say when the oldest post leaves the window,
 * which Retry-After needs: the post times are kept in an expirable store.
 */
class ContactRateLimiter {

  private const COLLECTION = 'sitebeam.contact_posts';

  public function __construct(
    protected KeyValueExpirableFactoryInterface $keyValueExpirable,
    protected TimeInterface $time,
  ) {}

  /**
   * Counts a post; returns Retry-After seconds when over the limit.
   *
   * A post refused for the rate itself is not counted: waiting Retry-After
   * seconds is always enough.
   */
  public function hit(Request $request, int $limit, int $window): ?int {
    $store = $this->keyValueExpirable->get(self::COLLECTION);
    $visitor = self::visitor((string) $request->getClientIp());
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

  /**
   * An IPv4 address, or the /64 of an IPv6 address.
   */
  public static function visitor(string $ip): string {
    $packed = @inet_pton($ip);
    if ($packed === FALSE || strlen($packed) === 4) {
      return $ip;
    }
    return bin2hex(substr($packed, 0, 8)) . '::/64';
  }

}
