<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Session\UserSession;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Hook\TrackerHooks;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\Routing\Route;

/**
 * Page attachments: the tracker's tag, the noscript pixel, their cacheability.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class TrackerAttachmentsTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam', 'sitebeam_test'];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'sitebeam']);
    $this->config('sitebeam.settings')
      ->set('base_url', 'https://api.example.test')
      ->set('website', 'kernel.example')
      ->set('visibility.roles', ['editor'])
      ->save();
  }

  /**
   * Tests that tracked page carries the tag with its cacheability.
   */
  public function testTrackedPageCarriesTheTagWithItsCacheability(): void {
    $attachments = $this->attachmentsFor('/node/1');
    $this->assertNotNull($this->trackerScriptAttributes($attachments));
    $this->assertCacheability($attachments);
  }

  /**
   * Tests that excluded role is not tracked and still varies by role.
   */
  public function testExcludedRoleIsNotTrackedAndStillVariesByRole(): void {
    $attachments = $this->attachmentsFor('/node/1', ['authenticated', 'editor']);
    $this->assertNull($this->trackerScriptAttributes($attachments));
    $this->assertCacheability($attachments);
    $this->assertTracked('/node/1', ['authenticated']);
  }

  /**
   * Tests that default excluded paths.
   *
   * @dataProvider excludedPaths
   */
  #[DataProvider('excludedPaths')]
  public function testDefaultExcludedPaths(string $path): void {
    $attachments = $this->attachmentsFor($path);
    $this->assertNull($this->trackerScriptAttributes($attachments));
    $this->assertCacheability($attachments);
  }

  /**
   * Data provider for testDefaultExcludedPaths().
   */
  public static function excludedPaths(): array {
    return [
      ['/admin/structure'],
      ['/batch'],
      ['/node/add/page'],
      ['/user/1/edit'],
      ['/USER/1/EDIT'],
    ];
  }

  /**
   * Tests that user profile is tracked.
   */
  public function testUserProfileIsTracked(): void {
    $this->assertTracked('/user/1');
  }

  /**
   * Tests that admin route is never tracked.
   */
  public function testAdminRouteIsNeverTracked(): void {
    $attachments = $this->attachmentsFor('/some/page', [], TRUE);
    $this->assertNull($this->trackerScriptAttributes($attachments));
  }

  /**
   * Tests that disabled or unconfigured tracker is absent.
   */
  public function testDisabledOrUnconfiguredTrackerIsAbsent(): void {
    $this->config('sitebeam.settings')->set('tracker.enabled', FALSE)->save();
    $this->assertNull($this->trackerScriptAttributes($this->attachmentsFor('/node/1')));
    $this->config('sitebeam.settings')->set('tracker.enabled', TRUE)->set('base_url', '')->save();
    $this->assertNull($this->trackerScriptAttributes($this->attachmentsFor('/node/1')));
  }

  /**
   * Tests that the tag carries the data attributes and follows the settings.
   */
  public function testTheTagCarriesTheDataAttributesAndFollowsTheSettings(): void {
    $attributes = $this->trackerScriptAttributes($this->attachmentsFor('/node/1'));
    $this->assertSame('https://api.example.test', $attributes['data-api']);
    $this->assertSame('kernel.example', $attributes['data-website']);
    $this->assertTrue($attributes['defer']);
    $this->assertMatchesRegularExpression('~/modules/custom/sitebeam/js/sitebeam\.min\.js\?\w+$~', $attributes['src']);
    $this->assertArrayNotHasKey('data-respect-dnt', $attributes);
    // Added by sitebeam_test through hook_sitebeam_tracker_attributes_alter().
    $this->assertSame('true', $attributes['data-track-localhost']);

    $this->config('sitebeam.settings')->set('base_url', 'https://other.example.test')->set('tracker.respect_dnt', FALSE)->save();
    $attributes = $this->trackerScriptAttributes($this->attachmentsFor('/node/1'));
    $this->assertSame('https://other.example.test', $attributes['data-api']);
    $this->assertSame('false', $attributes['data-respect-dnt']);
  }

  /**
   * Tests that the rendered tag is a deferred script.
   */
  public function testRenderedTagIsDeferredScript(): void {
    $attachments = $this->attachmentsFor('/node/1');
    [$element] = $attachments['#attached']['html_head'][0];
    $html = (string) $this->container->get('renderer')->renderInIsolation($element);
    $this->assertMatchesRegularExpression('~^<script src="[^"]+/js/sitebeam\.min\.js\?\w+" defer data-api="https://api\.example\.test" data-website="kernel\.example" data-track-localhost="true"[^>]*></script>~', $html);
  }

  /**
   * Tests that the kept parameters reach the tag and the pixel, overrides too.
   *
   * The pixel reports the page's origin only, unless every parameter is kept.
   */
  public function testKeptQueryReachesTheTagAndThePixel(): void {
    $attributes = $this->trackerScriptAttributes($this->attachmentsFor('/node/1'));
    $this->assertArrayNotHasKey('data-keep-query', $attributes);

    $this->config('sitebeam.settings')->set('tracker.keep_query', 'ref,lang')->save();
    $attachments = $this->attachmentsFor('/node/1');
    [$element] = $attachments['#attached']['html_head'][0];
    $html = (string) $this->container->get('renderer')->renderInIsolation($element);
    $this->assertStringContainsString(' data-keep-query="ref,lang"', $html);
    $this->assertMatchesRegularExpression('~<img [^>]*referrerpolicy="origin"~', $this->renderedPageTop('/node/1'));

    // settings.php overrides apply to both.
    $GLOBALS['config']['sitebeam.settings']['tracker']['keep_query'] = '*';
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->assertSame('*', $this->trackerScriptAttributes($this->attachmentsFor('/node/1'))['data-keep-query']);
    $this->assertMatchesRegularExpression('~<img [^>]*referrerpolicy="no-referrer-when-downgrade"~', $this->renderedPageTop('/node/1'));
  }

  /**
   * Tests that noscript pixel in the body.
   */
  public function testNoscriptPixelInTheBody(): void {
    $page_top = $this->pageTopFor('/node/1');
    $html = (string) $this->container->get('renderer')->renderInIsolation($page_top);
    $this->assertMatchesRegularExpression('~<noscript><img src="https://api\.example\.test/v1/tracker/img/kernel\.example" alt="" width="1" height="1" style="display:none" referrerpolicy="origin" crossorigin="anonymous"\s*/?>\s*</noscript>~', $html);
    $this->assertContains('url.site', $page_top['sitebeam_pixel']['#cache']['contexts']);
    $this->assertContains('user.roles', $page_top['sitebeam_pixel']['#cache']['contexts']);
    $this->assertContains('config:sitebeam.settings', $page_top['sitebeam_pixel']['#cache']['tags']);
  }

  /**
   * Tests that settings php overrides reach the tag and the pixel.
   */
  public function testSettingsPhpOverridesReachTheTagAndThePixel(): void {
    $this->config('sitebeam.settings')->set('base_url', '')->set('website', '')->save();
    $GLOBALS['config']['sitebeam.settings']['base_url'] = 'https://override.example.test';
    $GLOBALS['config']['sitebeam.settings']['website'] = 'override.example';
    $this->container->get('config.factory')->reset('sitebeam.settings');

    $this->assertStringContainsString('<img src="https://override.example.test/v1/tracker/img/override.example"', $this->renderedPageTop('/node/1'));
    $attributes = $this->trackerScriptAttributes($this->attachmentsFor('/node/1'));
    $this->assertSame('https://override.example.test', $attributes['data-api']);
    $this->assertSame('override.example', $attributes['data-website']);
  }

  /**
   * Tests that pixel uses the host when no website is set.
   */
  public function testPixelUsesTheHostWhenNoWebsiteIsSet(): void {
    $this->config('sitebeam.settings')->set('website', '')->save();
    $this->assertStringContainsString('/v1/tracker/img/site.example.test"', $this->renderedPageTop('/node/1'));
  }

  /**
   * Tests that no pixel when switched off or not tracked.
   */
  public function testNoPixelWhenSwitchedOffOrNotTracked(): void {
    $this->config('sitebeam.settings')->set('tracker.noscript', FALSE)->save();
    $this->assertStringNotContainsString('<img', $this->renderedPageTop('/node/1'));
    $this->config('sitebeam.settings')->set('tracker.noscript', TRUE)->save();
    $this->assertStringNotContainsString('<img', $this->renderedPageTop('/admin/config'));
  }

  /**
   * Tests that "Wait for consent" (config or settings.php) waits, no pixel.
   */
  public function testWaitForConsentPutsTheTagInConsentModeWithoutThePixel(): void {
    $this->assertArrayNotHasKey('data-consent', $this->trackerScriptAttributes($this->attachmentsFor('/node/1')));
    $this->config('sitebeam.settings')->set('tracker.wait_for_consent', TRUE)->save();
    $this->assertSame('', $this->trackerScriptAttributes($this->attachmentsFor('/node/1'))['data-consent']);
    $this->assertStringNotContainsString('<img', $this->renderedPageTop('/node/1'));

    $this->config('sitebeam.settings')->set('tracker.wait_for_consent', FALSE)->save();
    $GLOBALS['config']['sitebeam.settings']['tracker']['wait_for_consent'] = TRUE;
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->assertSame('', $this->trackerScriptAttributes($this->attachmentsFor('/node/1'))['data-consent']);
    $this->assertStringNotContainsString('<img', $this->renderedPageTop('/node/1'));
  }

  /**
   * Asserts that the tracker's tag is on the page.
   */
  private function assertTracked(string $path, array $roles = []): void {
    $this->assertNotNull($this->trackerScriptAttributes($this->attachmentsFor($path, $roles)));
  }

  /**
   * Asserts that the attachments vary by role, path and the settings.
   */
  private function assertCacheability(array $attachments): void {
    $this->assertContains('user.roles', $attachments['#cache']['contexts']);
    $this->assertContains('url.path', $attachments['#cache']['contexts']);
    $this->assertContains('config:sitebeam.settings', $attachments['#cache']['tags']);
  }

  /**
   * The page attachments the module adds on a path.
   */
  private function attachmentsFor(string $path, array $roles = [], bool $admin_route = FALSE): array {
    $this->visit($path, $roles, $admin_route);
    $attachments = [];
    $this->container->get('module_handler')->invoke('sitebeam', 'page_attachments', [&$attachments]);
    return $attachments;
  }

  /**
   * The page_top elements the module adds on a path.
   */
  private function pageTopFor(string $path): array {
    $this->visit($path, []);
    $page_top = [];
    $this->container->get('module_handler')->invoke('sitebeam', 'page_top', [&$page_top]);
    return $page_top;
  }

  /**
   * The page_top elements of a path as HTML.
   */
  private function renderedPageTop(string $path): string {
    $page_top = $this->pageTopFor($path);
    return (string) $this->container->get('renderer')->renderInIsolation($page_top);
  }

  /**
   * Makes a path the current request, for a visitor with these roles.
   */
  private function visit(string $path, array $roles, bool $admin_route = FALSE): void {
    $request = Request::create('http://site.example.test' . $path);
    $request->attributes->set('_route_object', new Route($path, [], [], ['_admin_route' => $admin_route]));
    $request->attributes->set('_route', 'sitebeam_test.page');
    // The kernel's test session: Drupal 11's KernelTestBase clears it
    // through the request stack.
    $request->setSession($this->container->get('request_stack')->getSession());
    $this->container->get('request_stack')->push($request);
    $this->container->get('current_route_match')->resetRouteMatch();
    $this->container->get('path.current')->setPath($path, $request);
    $this->container->get('current_user')->setAccount(new UserSession([
      'uid' => $roles ? 2 : 0,
      'roles' => $roles ?: ['anonymous'],
    ]));
  }

  /**
   * The attributes of the tracker's tag among the attachments, if there.
   */
  private function trackerScriptAttributes(array $attachments): ?array {
    foreach ($attachments['#attached']['html_head'] ?? [] as [$element, $key]) {
      if ($key === TrackerHooks::HEAD_KEY) {
        return $element['#attributes'];
      }
    }
    return NULL;
  }

}
