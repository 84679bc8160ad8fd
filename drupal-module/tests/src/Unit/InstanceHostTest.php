<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Api\InstanceHost;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Api\InstanceHost
 * @group sitebeam
 */
#[CoversClass(InstanceHost::class)]
#[Group('sitebeam')]
final class InstanceHostTest extends TestCase {

  /**
   * Tests which addresses are on the public internet.
   *
   * @dataProvider addresses
   */
  #[DataProvider('addresses')]
  public function testOnlyInternetAddressesArePublic(string $address, bool $public): void {
    $this->assertSame($public, InstanceHost::isPublic($address));
  }

  /**
   * Data provider for testOnlyInternetAddressesArePublic().
   */
  public static function addresses(): array {
    return [
      'IPv4 on the internet' => ['93.184.216.34', TRUE],
      'IPv6 on the internet' => ['2606:4700:4700::1111', TRUE],
      'loopback' => ['127.0.0.1', FALSE],
      'loopback, elsewhere in 127/8' => ['127.1.2.3', FALSE],
      '10/8' => ['10.20.30.40', FALSE],
      '172.16/12' => ['172.31.255.1', FALSE],
      '192.168/16' => ['192.168.0.1', FALSE],
      'link-local, cloud metadata' => ['169.254.169.254', FALSE],
      'this network' => ['0.0.0.0', FALSE],
      'shared address space' => ['100.64.0.1', FALSE],
      'IPv6 loopback' => ['::1', FALSE],
      'IPv6 unique local' => ['fd12:3456::1', FALSE],
      'IPv6 link-local' => ['fe80::1', FALSE],
      'IPv4-mapped loopback' => ['::ffff:127.0.0.1', FALSE],
      'IPv4-mapped private' => ['::ffff:10.0.0.1', FALSE],
      'IPv4-mapped public' => ['::ffff:93.184.216.34', TRUE],
      'benchmarking, 198.18/15' => ['198.19.255.1', FALSE],
      'next to benchmarking' => ['198.20.0.1', TRUE],
      'IETF protocol assignments, 192.0.0/24' => ['192.0.0.8', FALSE],
      'NAT64 of a private address' => ['64:ff9b::a00:1', FALSE],
      'local-use NAT64' => ['64:ff9b:1::a00:1', FALSE],
      'IPv4-compatible loopback' => ['::7f00:1', FALSE],
      'IPv6 site-local' => ['fec0::1', FALSE],
      'IPv6 site-local, end of fec0::/10' => ['feff::1', FALSE],
      'not an address' => ['intranet', FALSE],
    ];
  }

}
