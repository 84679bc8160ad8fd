<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

/**
 * Localhost and *.localhost: this machine, never a DNS lookup.
 *
 * RFC 6761 reserves these names for loopback and browsers resolve them
 * without asking DNS. A resolver asked for evil.localhost may ask the
 * network's DNS server, and whoever answers would choose where the token
 * goes in clear: the module connects to 127.0.0.1 itself instead.
 */
final class LocalhostNames {

  /**
   * The address these names connect to, as the tag's clients do.
   */
  public const LOOPBACK = '127.0.0.1';

  /**
   * True for localhost and *.localhost.
   */
  public static function isLocalhostName(string $host): bool {
    $host = strtolower($host);
    return $host === 'localhost' || str_ends_with($host, '.localhost');
  }

  /**
   * Where a request to $url connects, and the Host header it then carries.
   *
   * Plain http to a localhost name goes to 127.0.0.1 with the name in Host;
   * over https the certificate guards the token and the name stays.
   *
   * @return array{0: string, 1: array<string, string>}
   *   The URL to connect to and the headers to add.
   */
  public static function route(string $url): array {
    $parts = parse_url($url) ?: [];
    if (strtolower($parts['scheme'] ?? '') !== 'http' || !self::isLocalhostName($parts['host'] ?? '')) {
      return [$url, []];
    }
    $port = isset($parts['port']) ? ':' . $parts['port'] : '';
    $rest = ($parts['path'] ?? '') . (isset($parts['query']) ? '?' . $parts['query'] : '');
    return ['http://' . self::LOOPBACK . $port . $rest, ['Host' => strtolower($parts['host']) . $port]];
  }

}
