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
   */
  public static function fromIp(string $ip): string {
    $packed = @inet_pton($ip);
    if ($packed === FALSE || strlen($packed) === 4) {
      return $ip;
    }
    return bin2hex(substr($packed, 0, 8)) . '::/64';
  }

}
