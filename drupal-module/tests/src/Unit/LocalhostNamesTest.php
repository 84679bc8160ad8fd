<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Api\LocalhostNames;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Api\LocalhostNames
 * @group sitebeam
 */
#[CoversClass(LocalhostNames::class)]
#[Group('sitebeam')]
final class LocalhostNamesTest extends TestCase {

  /**
   * Tests that only plain http to a localhost name is routed to loopback.
   */
  public function testOnlyPlainHttpToLocalhostNamesGoesToLoopback(): void {
    $this->assertSame(['http://127.0.0.1/v1/ai/models', ['Host' => 'localhost']], LocalhostNames::route('http://localhost/v1/ai/models'));
    $this->assertSame(['http://127.0.0.1:8080/v1/email', ['Host' => 'api.dev.localhost:8080']], LocalhostNames::route('http://API.Dev.LOCALHOST:8080/v1/email'));
    $unchanged = [
      'https://api.localhost/v1/email',
      'http://localhost.example.com/v1/email',
      'http://mylocalhost/v1/email',
      'http://127.0.0.1:4010/v1/email',
    ];
    foreach ($unchanged as $url) {
      $this->assertSame([$url, []], LocalhostNames::route($url), $url);
    }
  }

}
