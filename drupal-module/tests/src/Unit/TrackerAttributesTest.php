<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Tracker\TrackerAttributes;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Tracker\TrackerAttributes
 * @group sitebeam
 */
#[CoversClass(TrackerAttributes::class)]
#[Group('sitebeam')]
final class TrackerAttributesTest extends TestCase {

  /**
   * Tests that attributes from settings.
   */
  public function testAttributesFromSettings(): void {
    $tracker = TrackerAttributes::fromSettings([
      'base_url' => 'https://api.example.test/',
      'website' => 'shop',
      'tracker' => ['respect_dnt' => TRUE],
    ]);
    $this->assertSame(['data-api' => 'https://api.example.test', 'data-website' => 'shop'], $tracker->dataAttributes());
    $this->assertTrue($tracker->isUsable());
  }

  /**
   * Tests that do not track ignored only when asked.
   */
  public function testDoNotTrackIgnoredOnlyWhenAsked(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'tracker' => ['respect_dnt' => FALSE]]);
    $this->assertSame('false', $tracker->dataAttributes()['data-respect-dnt']);
  }

  /**
   * Tests that empty website leaves the host to the snippet.
   */
  public function testEmptyWebsiteLeavesTheHostToTheSnippet(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'website' => ' ']);
    $this->assertArrayNotHasKey('data-website', $tracker->dataAttributes());
  }

  /**
   * Tests that pixel url encodes the website.
   */
  public function testPixelUrlEncodesTheWebsite(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'website' => ''], 'my site/é');
    $this->assertSame('https://a.test/v1/tracker/img/my%20site%2F%C3%A9', $tracker->pixelUrl());
  }

  /**
   * Tests that not usable without instance.
   */
  public function testNotUsableWithoutInstance(): void {
    $this->assertFalse(TrackerAttributes::fromSettings([], 'example.test')->isUsable());
  }

}
