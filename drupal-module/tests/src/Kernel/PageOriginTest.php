<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\Tests\sitebeam\Traits\HttpKernelTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Which Host is this site's own: trusted_host_patterns, else loopback and IPs.
 *
 * A DNS-rebinding page (evil.example made to resolve to the site's address)
 * sends "Host: evil.example" with "Origin: http://evil.example".
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class PageOriginTest extends KernelTestBase {

  use HttpKernelTrait;
  use ServerStubTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  private const REBOUND = 'http://evil.example';

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->config('user.role.anonymous')->set('permissions', ['access content'])->save();
    $this->config('system.site')->set('mail', 'owner@example.com')->save();
    $this->connectToStub();
    $this->config('sitebeam.settings')
      ->set('contact.flood_limit', 50)
      ->set('chat.enabled', TRUE)
      ->set('chat.models', ['mock'])
      ->save();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests that a rebinding page is refused on every endpoint without patterns.
   */
  public function testRebindingPageIsRefusedWithoutTrustedHostPatterns(): void {
    $contact = $this->postContact(self::REBOUND, ['HTTP_ORIGIN' => self::REBOUND]);
    $this->assertRefused($contact);
    $this->assertNull($contact->headers->get('Access-Control-Allow-Origin'));

    $by_referer = $this->postContact(self::REBOUND, ['HTTP_REFERER' => self::REBOUND . '/contact-us']);
    $this->assertRefused($by_referer);
    $this->assertSame([], $this->stubEmails());

    $this->assertRefused($this->handle(Request::create(self::REBOUND . '/sitebeam/chat', 'GET', [], [], [], ['HTTP_ORIGIN' => self::REBOUND])));
    foreach (['/sitebeam/contact', '/sitebeam/chat'] as $path) {
      $preflight = $this->handle(Request::create(self::REBOUND . $path, 'OPTIONS', [], [], [], ['HTTP_ORIGIN' => self::REBOUND]));
      $this->assertRefused($preflight);
    }
  }

  /**
   * Tests that a Host the trusted_host_patterns cover is this site's own.
   */
  public function testTrustedHostPatternsMakeTheHostTheSitesOwn(): void {
    $this->setSetting('trusted_host_patterns', ['^evil\.example$', '^www\.example\.com$']);

    $contact = $this->postContact(self::REBOUND, ['HTTP_ORIGIN' => self::REBOUND]);
    $this->assertSame(200, $contact->getStatusCode(), (string) $contact->getContent());
    $this->assertSame(self::REBOUND, $contact->headers->get('Access-Control-Allow-Origin'));
    $this->assertCount(1, $this->stubEmails());

    $chat = $this->handle(Request::create(self::REBOUND . '/sitebeam/chat', 'GET', [], [], [], ['HTTP_ORIGIN' => self::REBOUND]));
    $this->assertSame(200, $chat->getStatusCode(), (string) $chat->getContent());
    $preflight = $this->handle(Request::create(self::REBOUND . '/sitebeam/chat', 'OPTIONS', [], [], [], ['HTTP_ORIGIN' => self::REBOUND]));
    $this->assertSame(204, $preflight->getStatusCode());

    // Once patterns are set, a host they leave out is nobody's own, loopback
    // included (Drupal itself answers such a Host 400 outside the CLI).
    $this->assertRefused($this->postContact('http://localhost', ['HTTP_ORIGIN' => 'http://localhost']));
  }

  /**
   * Tests that names no DNS answer can bind stay the site's own.
   *
   * @dataProvider unbindableOrigins
   */
  #[DataProvider('unbindableOrigins')]
  public function testLoopbackAndIpHostsStayTheSitesOwn(string $origin): void {
    $contact = $this->postContact($origin, ['HTTP_ORIGIN' => $origin]);
    $this->assertSame(200, $contact->getStatusCode(), (string) $contact->getContent());
    $this->assertSame($origin, $contact->headers->get('Access-Control-Allow-Origin'));
    $by_referer = $this->postContact($origin, ['HTTP_REFERER' => $origin . '/contact-us']);
    $this->assertSame(200, $by_referer->getStatusCode());
  }

  /**
   * Data provider for testLoopbackAndIpHostsStayTheSitesOwn().
   */
  public static function unbindableOrigins(): array {
    return [
      'localhost' => ['http://localhost'],
      'a name under localhost' => ['http://shop.localhost:8080'],
      'IPv4 with a port' => ['http://127.0.0.1:8888'],
      'IPv6' => ['http://[::1]:8080'],
      'a public IPv4' => ['https://203.0.113.7'],
    ];
  }

  /**
   * Tests that an ordinary name needs trusted_host_patterns to be the site's.
   */
  public function testOrdinaryNameIsNotTheSitesOwnWithoutPatterns(): void {
    $this->assertRefused($this->postContact('https://www.example.com', ['HTTP_ORIGIN' => 'https://www.example.com']));
    $this->assertRefused($this->postContact('http://localhost.evil.example', ['HTTP_ORIGIN' => 'http://localhost.evil.example']));
    $script = $this->postContact('https://www.example.com', []);
    $this->assertSame(200, $script->getStatusCode(), 'Without Origin or Referer a post is judged on its content.');
  }

  /**
   * Tests that links back to the site are paths, never built from the Host.
   */
  public function testLinksBackToTheSiteArePathsNotHostAddresses(): void {
    $untrusted = $this->postNatively(self::REBOUND, self::REBOUND . '/contact-us');
    $this->assertRefused($untrusted);
    $this->assertStringContainsString('<a href="/contact-us">', (string) $untrusted->getContent());
    $this->assertStringNotContainsString(self::REBOUND, (string) $untrusted->getContent());

    $this->setSetting('trusted_host_patterns', ['^evil\.example$']);
    $native = $this->postNatively(self::REBOUND, self::REBOUND . '/contact-us?sent=1&a=b');
    $this->assertSame(303, $native->getStatusCode(), (string) $native->getContent());
    $this->assertSame('/contact-us?a=b&sent=1', $native->headers->get('Location'));

    $refused = $this->postNatively(self::REBOUND, self::REBOUND . '/contact-us', ['email' => 'nope']);
    $html = (string) $refused->getContent();
    $this->assertSame(400, $refused->getStatusCode());
    $this->assertStringContainsString('<a href="/contact-us">', $html);
    $this->assertStringContainsString('<input type="hidden" name="back" value="/contact-us">', $html);
    $this->assertStringNotContainsString(self::REBOUND, $html);

    $chat = $this->handle(Request::create(self::REBOUND . '/sitebeam/chat', 'POST', ['model' => 'mock', 'message' => ''], [], [], [
      'HTTP_ORIGIN' => self::REBOUND,
      'HTTP_REFERER' => self::REBOUND . '/ask?q=1',
      'CONTENT_TYPE' => 'application/x-www-form-urlencoded',
    ]));
    $this->assertSame(400, $chat->getStatusCode(), (string) $chat->getContent());
    $this->assertStringContainsString('<a href="/ask?q=1">', (string) $chat->getContent());
    $this->assertStringNotContainsString(self::REBOUND, (string) $chat->getContent());
  }

  /**
   * Tests that a kept back field leads only to paths of this site.
   *
   * @dataProvider keptPages
   */
  #[DataProvider('keptPages')]
  public function testKeptBackFieldLeadsOnlyToPathsOfThisSite(string $kept, string $location): void {
    $response = $this->postNatively('http://localhost', 'http://localhost/sitebeam/contact', ['back' => $kept]);
    $this->assertSame(303, $response->getStatusCode(), (string) $response->getContent());
    $this->assertSame($location, $response->headers->get('Location'));
  }

  /**
   * Data provider for testKeptBackFieldLeadsOnlyToPathsOfThisSite().
   */
  public static function keptPages(): array {
    return [
      'a path' => ['/contact-us', '/contact-us?sent=1'],
      'an address on this host' => ['http://localhost/contact-us?x=1', '/contact-us?x=1&sent=1'],
      'another site' => ['https://evil.example/contact-us', '/?sent=1'],
      'a scheme-relative address' => ['//evil.example/contact-us', '/?sent=1'],
      'a backslash browsers read as a slash' => ['/\\evil.example/contact-us', '/?sent=1'],
      'a script' => ['javascript:alert(1)', '/?sent=1'],
      'the endpoint itself' => ['/sitebeam/contact', '/?sent=1'],
    ];
  }

  /**
   * Tests that the status report names the consequence of no trusted hosts.
   */
  public function testStatusReportWarnsOnlyWithoutTrustedHostPatterns(): void {
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    require_once $this->root . '/core/includes/install.inc';
    $warning = sitebeam_requirements('runtime')['sitebeam_trusted_hosts'] ?? NULL;
    $this->assertSame(REQUIREMENT_WARNING, $warning['severity'] ?? NULL);
    $this->assertStringContainsString('trusted_host_patterns', (string) $warning['description']);

    $this->setSetting('trusted_host_patterns', ['^www\.example\.com$']);
    $this->assertArrayNotHasKey('sitebeam_trusted_hosts', sitebeam_requirements('runtime'));
  }

  /**
   * Asserts the contract's refusal of a page: 403 forbidden_origin.
   */
  private function assertRefused(Response $response): void {
    $this->assertSame(403, $response->getStatusCode(), (string) $response->getContent());
    if (str_contains((string) $response->headers->get('Content-Type'), 'json')) {
      $this->assertSame('forbidden_origin', json_decode((string) $response->getContent(), TRUE)['i18n_code']);
    }
  }

  /**
   * Posts a valid contact message to the endpoint on the given origin.
   */
  private function postContact(string $site, array $server, string $type = 'application/json', array $overrides = []): Response {
    $fields = $overrides + [
      'name' => 'Ann',
      'email' => 'ann@example.com',
      'subject' => 'Hello',
      'message' => 'A question about prices.',
      'homepage' => '',
      'ticket' => $this->container->get('sitebeam.contact_ticket')->issue((int) (microtime(TRUE) * 1000) - 10000),
    ];
    $json = $type === 'application/json';
    return $this->handle(Request::create($site . '/sitebeam/contact', 'POST', $json ? [] : $fields, [], [], $server + ['CONTENT_TYPE' => $type], $json ? json_encode($fields) : NULL));
  }

  /**
   * Posts the contact form as a browser without JavaScript does.
   */
  private function postNatively(string $site, string $referer, array $overrides = []): Response {
    $server = ['HTTP_ORIGIN' => $site, 'HTTP_REFERER' => $referer];
    return $this->postContact($site, $server, 'application/x-www-form-urlencoded', $overrides);
  }

}
