<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Endpoint\VisitorAddress;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * Who a visitor is for the rate limits.
 *
 * @coversDefaultClass \Drupal\sitebeam\Endpoint\VisitorAddress
 * @group sitebeam
 */
#[CoversClass(VisitorAddress::class)]
#[Group('sitebeam')]
final class VisitorAddressTest extends TestCase {

  /**
   * Tests that an IPv4-mapped address is its IPv4 address, not a /64 of all.
   */
  public function testIpv4MappedAddressIsItsIpv4Address(): void {
    $this->assertSame('192.0.2.1', VisitorAddress::fromIp('::ffff:192.0.2.1'));
    $this->assertSame('198.51.100.7', VisitorAddress::fromIp('::ffff:c633:6407'));
    $this->assertNotSame(VisitorAddress::fromIp('::ffff:192.0.2.1'), VisitorAddress::fromIp('::ffff:192.0.2.2'));
    $this->assertSame('20010db800010002::/64', VisitorAddress::fromIp('2001:db8:1:2:3:4:5:6'));
    $this->assertSame('192.0.2.1', VisitorAddress::fromIp('192.0.2.1'));
  }

}
