<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Symfony\Component\HttpFoundation\Request;

/**
 * Who a visitor is for the rate limits: as the contact protocol defines it.
 */
final class VisitorAddress {

  /**
   * The client's IPv4 address, or the /64 of its IPv6 address.
   */
  public static function of(Request $request): string {
    return self::fromIp((string) $request->getClientIp());
  }

  /**
   * An IPv4 address, or the /64 of an IPv6 address.
   *
   * An IPv4-mapped address (::ffff:192.0.2.1, as a dual-stack server reports
   * IPv4 clients) is its IPv4 address: its /64 would be every such client.
   */
  public static function fromIp(string $ip): string {
    $packed = @inet_pton($ip);
    if ($packed === FALSE || strlen($packed) === 4) {
      return $ip;
    }
    if (str_starts_with($packed, str_repeat("\0", 10) . "\xff\xff")) {
      return (string) inet_ntop(substr($packed, 12));
    }
    return bin2hex(substr($packed, 0, 8)) . '::/64';
  }

}
