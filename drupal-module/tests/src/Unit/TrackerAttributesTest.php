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
   * Tests that the kept parameters reach the tag and decide the pixel's policy.
   */
  public function testKeptQueryReachesTheTagAndDecidesThePixelPolicy(): void {
    $settings = ['base_url' => 'https://a.test'];
    $default = TrackerAttributes::fromSettings($settings);
    $this->assertArrayNotHasKey('data-keep-query', $default->dataAttributes());
    $this->assertSame('origin', $default->pixelReferrerPolicy());

    $listed = TrackerAttributes::fromSettings($settings + ['tracker' => ['keep_query' => ' ref , lang ']]);
    $this->assertSame('ref,lang', $listed->dataAttributes()['data-keep-query']);
    $this->assertSame('origin', $listed->pixelReferrerPolicy());

    $wildcard = TrackerAttributes::fromSettings($settings + ['tracker' => ['keep_query' => 'utm_*,,ref,ref']]);
    $this->assertSame('utm_*,ref', $wildcard->dataAttributes()['data-keep-query']);
    $this->assertSame('origin', $wildcard->pixelReferrerPolicy());

    foreach (['*', 'ref, **'] as $every) {
      $all = TrackerAttributes::fromSettings($settings + ['tracker' => ['keep_query' => $every]]);
      $this->assertSame('*', $all->dataAttributes()['data-keep-query'], $every);
      $this->assertSame('no-referrer-when-downgrade', $all->pixelReferrerPolicy(), $every);
    }
  }

  /**
   * Tests that a settings.php value that is not names keeps the tag's default.
   */
  public function testInvalidKeptQueryKeepsTheTagDefault(): void {
    foreach (['a b', 'token"x', 'a%5B%5D', "ref\nlang"] as $value) {
      $tracker = TrackerAttributes::fromSettings(['base_url' => 'https://a.test', 'tracker' => ['keep_query' => $value]]);
      $this->assertArrayNotHasKey('data-keep-query', $tracker->dataAttributes(), $value);
      $this->assertSame('origin', $tracker->pixelReferrerPolicy(), $value);
    }
  }

  /**
   * Tests that not usable without instance.
   */
  public function testNotUsableWithoutInstance(): void {
    $this->assertFalse(TrackerAttributes::fromSettings([], 'example.test')->isUsable());
  }

}
