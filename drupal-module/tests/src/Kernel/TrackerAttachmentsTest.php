<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Session\UserSession;
use Drupal\KernelTests\KernelTestBase;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\Routing\Route;

/**
 * Page attachments, the noscript pixel, cacheability and the library.
 *
 * @group sitebeam
 */
final class TrackerAttachmentsTest extends KernelTestBase {

  protected static $modules = ['system', 'user', 'sitebeam', 'sitebeam_test'];

  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'sitebeam']);
    $this->config('sitebeam.settings')
      ->set('base_url', 'https://api.example.test')
      ->set('website', 'kernel.example')
      ->set('visibility.roles', ['editor'])
      ->save();
  }

  public function testTrackedPageAttachesTheLibraryWithItsCacheability(): void {
    $attachments = $this->attachmentsFor('/node/1');
    $this->assertContains('sitebeam/tracker', $attachments['#attached']['library']);
    $this->assertCacheability($attachments);
  }

  public function testExcludedRoleIsNotTrackedAndStillVariesByRole(): void {
    $attachments = $this->attachmentsFor('/node/1', ['authenticated', 'editor']);
    $this->assertNotContains('sitebeam/tracker', $attachments['#attached']['library'] ?? []);
    $this->assertCacheability($attachments);
    $this->assertTracked('/node/1', ['authenticated']);
  }

  /**
   * @dataProvider excludedPaths
   */
  public function testDefaultExcludedPaths(string $path): void {
    $attachments = $this->attachmentsFor($path);
    $this->assertNotContains('sitebeam/tracker', $attachments['#attached']['library'] ?? []);
    $this->assertCacheability($attachments);
  }

  public static function excludedPaths(): array {
    return [
      ['/admin/structure'],
      ['/batch'],
      ['/node/add/page'],
      ['/user/1/edit'],
      ['/USER/1/EDIT'],
    ];
  }

  public function testUserProfileIsTracked(): void {
    $this->assertTracked('/user/1');
  }

  public function testAdminRouteIsNeverTracked(): void {
    $attachments = $this->attachmentsFor('/some/page', [], TRUE);
    $this->assertNotContains('sitebeam/tracker', $attachments['#attached']['library'] ?? []);
  }

  public function testDisabledOrUnconfiguredTrackerIsAbsent(): void {
    $this->config('sitebeam.settings')->set('tracker.enabled', FALSE)->save();
    $this->assertNotContains('sitebeam/tracker', $this->attachmentsFor('/node/1')['#attached']['library'] ?? []);
    $this->config('sitebeam.settings')->set('tracker.enabled', TRUE)->set('base_url', '')->save();
    $this->assertNotContains('sitebeam/tracker', $this->attachmentsFor('/node/1')['#attached']['library'] ?? []);
  }

  public function testLibraryCarriesTheDataAttributesAndFollowsTheSettings(): void {
    $attributes = $this->trackerScriptAttributes();
    $this->assertSame('https://api.example.test', $attributes['data-api']);
    $this->assertSame('kernel.example', $attributes['data-website']);
    $this->assertTrue($attributes['defer']);
    $this->assertArrayNotHasKey('data-respect-dnt', $attributes);
    // Added by sitebeam_test through hook_sitebeam_tracker_attributes_alter().
    $this->assertSame('true', $attributes['data-track-localhost']);

    $checksum = $this->container->get('cache_tags.invalidator.checksum');
    $before = $checksum->getCurrentChecksum(['library_info']);
    $this->config('sitebeam.settings')->set('base_url', 'https://other.example.test')->set('tracker.respect_dnt', FALSE)->save();
    $this->assertGreaterThan($before, $checksum->getCurrentChecksum(['library_info']), 'Saving the settings invalidates library_info.');

    $this->container->get('library.discovery')->clearCachedDefinitions();
    $attributes = $this->trackerScriptAttributes();
    $this->assertSame('https://other.example.test', $attributes['data-api']);
    $this->assertSame('false', $attributes['data-respect-dnt']);
  }

  public function testUnrelatedSettingsLeaveTheLibraryCache(): void {
    $checksum = $this->container->get('cache_tags.invalidator.checksum');
    $before = $checksum->getCurrentChecksum(['library_info']);
    $this->config('sitebeam.settings')->set('contact.recipient', 'owner@example.test')->save();
    $this->assertSame($before, $checksum->getCurrentChecksum(['library_info']));
  }

  public function testNoscriptPixelInTheBody(): void {
    $page_top = $this->pageTopFor('/node/1');
    $html = (string) $this->container->get('renderer')->renderInIsolation($page_top);
    $this->assertMatchesRegularExpression('~<noscript><img src="https://api\.example\.test/v1/tracker/img/kernel\.example" alt="" width="1" height="1" style="display:none" referrerpolicy="no-referrer-when-downgrade"\s*/?>\s*</noscript>~', $html);
    $this->assertContains('url.site', $page_top['sitebeam_pixel']['#cache']['contexts']);
    $this->assertContains('user.roles', $page_top['sitebeam_pixel']['#cache']['contexts']);
    $this->assertContains('config:sitebeam.settings', $page_top['sitebeam_pixel']['#cache']['tags']);
  }

  public function testPixelUsesTheHostWhenNoWebsiteIsSet(): void {
    $this->config('sitebeam.settings')->set('website', '')->save();
    $this->assertStringContainsString('/v1/tracker/img/site.example.test"', $this->renderedPageTop('/node/1'));
  }

  public function testNoPixelWhenSwitchedOffOrNotTracked(): void {
    $this->config('sitebeam.settings')->set('tracker.noscript', FALSE)->save();
    $this->assertStringNotContainsString('<img', $this->renderedPageTop('/node/1'));
    $this->config('sitebeam.settings')->set('tracker.noscript', TRUE)->save();
    $this->assertStringNotContainsString('<img', $this->renderedPageTop('/admin/config'));
  }

  private function assertTracked(string $path, array $roles = []): void {
    $this->assertContains('sitebeam/tracker', $this->attachmentsFor($path, $roles)['#attached']['library'] ?? []);
  }

  private function assertCacheability(array $attachments): void {
    $this->assertContains('user.roles', $attachments['#cache']['contexts']);
    $this->assertContains('url.path', $attachments['#cache']['contexts']);
    $this->assertContains('config:sitebeam.settings', $attachments['#cache']['tags']);
  }

  private function attachmentsFor(string $path, array $roles = [], bool $admin_route = FALSE): array {
    $this->visit($path, $roles, $admin_route);
    $attachments = [];
    $this->container->get('module_handler')->invoke('sitebeam', 'page_attachments', [&$attachments]);
    return $attachments;
  }

  private function pageTopFor(string $path): array {
    $this->visit($path, []);
    $page_top = [];
    $this->container->get('module_handler')->invoke('sitebeam', 'page_top', [&$page_top]);
    return $page_top;
  }

  private function renderedPageTop(string $path): string {
    $page_top = $this->pageTopFor($path);
    return (string) $this->container->get('renderer')->renderInIsolation($page_top);
  }

  private function visit(string $path, array $roles, bool $admin_route = FALSE): void {
    $request = Request::create('http://site.example.test' . $path);
    $request->attributes->set('_route_object', new Route($path, [], [], ['_admin_route' => $admin_route]));
    $request->attributes->set('_route', 'sitebeam_test.page');
    $this->container->get('request_stack')->push($request);
    $this->container->get('current_route_match')->resetRouteMatch();
    $this->container->get('path.current')->setPath($path, $request);
    $this->container->get('current_user')->setAccount(new UserSession(['uid' => $roles ? 2 : 0, 'roles' => $roles ?: ['anonymous']]));
  }

  private function trackerScriptAttributes(): array {
    $library = $this->container->get('library.discovery')->getLibraryByName('sitebeam', 'tracker');
    return $library['js'][0]['attributes'];
  }

}
