<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

use Drupal\Core\Site\Settings;

/**
 * Where the module may connect: public addresses on web ports only.
 *
 * Whoever may set the instance address could otherwise make the site probe
 * its own network (Test connection would tell an open port from a closed
 * one). As WordPress's wp_safe_remote_request(), and the Sitebeam plugin's
 * SITEBEAM_ALLOW_PRIVATE_HOSTS, a private, loopback, link-local or reserved
 * address, or a port other than 80, 443 and 8080, is refused unless
 * settings.php allows them: $settings['sitebeam_allow_private_hosts'] = TRUE.
 * The addresses checked are the ones cURL connects to (CURLOPT_RESOLVE), so a
 * name cannot resolve to a public address for the check and a private one for
 * the request.
 */
class InstanceHost {

  /**
   * The settings.php key that allows private hosts and any port.
   */
  public const ALLOW_PRIVATE_HOSTS = 'sitebeam_allow_private_hosts';

  public const PRIVATE = 'private';
  public const UNRESOLVED = 'unresolved';

  private const PORTS = [80, 443, 8080];

  /**
   * Ranges filter_var() lets through, as [network, prefix length].
   *
   * Shared address space (RFC 6598), benchmarking (RFC 2544), IETF protocol
   * assignments (RFC 6890), NAT64 (RFC 6052, RFC 8215: they reach an IPv4
   * address of the gateway's choosing), IPv4-compatible IPv6 (::7f00:1 is
   * 127.0.0.1) and site-local IPv6 (RFC 3879).
   */
  private const EXTRA_PRIVATE = [
    ['100.64.0.0', 10],
    ['198.18.0.0', 15],
    ['192.0.0.0', 24],
    ['64:ff9b::', 96],
    ['64:ff9b:1::', 48],
    ['::', 96],
    ['fec0::', 10],
  ];

  /**
   * Whether settings.php allows private hosts and any port.
   */
  public function allowsPrivateHosts(): bool {
    return Settings::get(self::ALLOW_PRIVATE_HOSTS) === TRUE;
  }

  /**
   * Checks where a request to $url would connect.
   *
   * @return array{0: string|null, 1: string[]}
   *   The refusal (self::PRIVATE, self::UNRESOLVED) or NULL, and the
   *   CURLOPT_RESOLVE entries that pin the connection to the checked
   *   addresses.
   */
  public function check(string $url): array {
    if ($this->allowsPrivateHosts()) {
      return [NULL, []];
    }
    $parts = parse_url($url) ?: [];
    $host = strtolower(trim($parts['host'] ?? '', '[]'));
    $port = (int) ($parts['port'] ?? (strtolower($parts['scheme'] ?? '') === 'http' ? 80 : 443));
    if ($host === '' || !in_array($port, self::PORTS, TRUE) || LocalhostNames::isLocalhostName($host)) {
      return [self::PRIVATE, []];
    }
    $literal = filter_var($host, FILTER_VALIDATE_IP) !== FALSE;
    $addresses = $literal ? [$host] : $this->addresses($host);
    if ($addresses === []) {
      return [self::UNRESOLVED, []];
    }
    foreach ($addresses as $address) {
      if (!self::isPublic($address)) {
        return [self::PRIVATE, []];
      }
    }
    $pinned = array_map(static fn (string $address): string => str_contains($address, ':') ? '[' . $address . ']' : $address, $addresses);
    return [NULL, $literal ? [] : [$host . ':' . $port . ':' . implode(',', $pinned)]];
  }

  /**
   * The IPv4 and IPv6 addresses of a name; none when it does not resolve.
   *
   * @return string[]
   *   Addresses.
   */
  protected function addresses(string $host): array {
    $ipv4 = gethostbynamel($host) ?: [];
    $ipv6 = array_column(@dns_get_record($host, DNS_AAAA) ?: [], 'ipv6');
    return array_values(array_unique(array_merge($ipv4, $ipv6)));
  }

  /**
   * Whether an address is on the public internet.
   */
  public static function isPublic(string $address): bool {
    $packed = @inet_pton($address);
    if ($packed === FALSE) {
      return FALSE;
    }
    // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is its IPv4 address.
    if (strlen($packed) === 16 && str_starts_with($packed, str_repeat("\0", 10) . "\xff\xff")) {
      $packed = substr($packed, 12);
      $address = (string) inet_ntop($packed);
    }
    if (filter_var($address, FILTER_VALIDATE_IP, FILTER_FLAG_NO_PRIV_RANGE | FILTER_FLAG_NO_RES_RANGE) === FALSE) {
      return FALSE;
    }
    foreach (self::EXTRA_PRIVATE as [$network, $bits]) {
      if (self::inRange($packed, (string) inet_pton($network), $bits)) {
        return FALSE;
      }
    }
    return TRUE;
  }

  /**
   * Whether a packed address is in a packed network of $bits bits.
   */
  private static function inRange(string $address, string $network, int $bits): bool {
    if (strlen($address) !== strlen($network)) {
      return FALSE;
    }
    $bytes = intdiv($bits, 8);
    if (substr($address, 0, $bytes) !== substr($network, 0, $bytes)) {
      return FALSE;
    }
    $rest = $bits % 8;
    if ($rest === 0) {
      return TRUE;
    }
    $mask = (0xff << (8 - $rest)) & 0xff;
    return (ord($address[$bytes]) & $mask) === (ord($network[$bytes]) & $mask);
  }

}
