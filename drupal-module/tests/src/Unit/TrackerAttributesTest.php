<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Tracker\TrackerAttributes;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Tracker\TrackerAttributes
 * @group sitebeam
 */
final class TrackerAttributesTest extends TestCase {

  public function testAttributesFromSettings(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://api.example.test/', 'website' => 'shop', 'tracker' => ['respect_dnt' => TRUE]]);
    $this->assertSame(['data-api' => 'https://api.example.test', 'data-website' => 'shop'], $tracker->dataAttributes());
    $this->assertTrue($tracker->isUsable());
  }

  public function testDoNotTrackIgnoredOnlyWhenAsked(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'tracker' => ['respect_dnt' => FALSE]]);
    $this->assertSame('false', $tracker->dataAttributes()['data-respect-dnt']);
  }

  public function testEmptyWebsiteLeavesTheHostToTheSnippet(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'website' => ' ']);
    $this->assertArrayNotHasKey('data-website', $tracker->dataAttributes());
  }

  public function testPixelUrlEncodesTheWebsite(): void {
    $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'website' => ''], 'my site/é');
    $this->assertSame('https://a.test/v1/tracker/img/my%20site%2F%C3%A9', $tracker->pixelUrl());
  }

  public function testNotUsableWithoutInstance(): void {
    $this->assertFalse(TrackerAttributes::fromSettings([], 'example.test')->isUsable());
  }

}
