<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use GuzzleHttp\Client;
use GuzzleHttp\Handler\MockHandler;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use GuzzleHttp\Psr7\Response;
use PHPUnit\Framework\Attributes\Group;

/**
 * Where the token may travel: the configured instance only, never redirected.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class ApiClientTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'sitebeam'];

  /**
   * Requests the client made, as Guzzle's history middleware records them.
   */
  private array $history = [];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['sitebeam']);
    $this->config('sitebeam.settings')->set('base_url', 'https://api.example.test')->save();
    $this->setSetting('sitebeam_api_token', 'secret-token');
  }

  /**
   * Tests that a redirect is never followed.
   */
  public function testRedirectIsNeverFollowed(): void {
    $result = $this->client([new Response(307, ['Location' => 'https://elsewhere.example.test/v1/email'])])
      ->sendEmail(['to' => 'ann@example.com', 'subject' => 'Hi', 'content' => 'x']);

    $this->assertFalse($result->isSuccess());
    $this->assertCount(1, $this->history);
    $this->assertSame('https://api.example.test/v1/email', (string) $this->history[0]['request']->getUri());
    $this->assertSame('secret-token', $this->history[0]['request']->getHeaderLine('X-Auth-Token'));
  }

  /**
   * Tests that plain http from settings php carries no token.
   */
  public function testPlainHttpFromSettingsPhpCarriesNoToken(): void {
    $GLOBALS['config']['sitebeam.settings']['base_url'] = 'http://api.example.test';
    $this->container->get('config.factory')->reset('sitebeam.settings');

    $result = $this->client([new Response(200, [], '{"status":"ok"}')])->probeEmailApi();

    $this->assertSame(ApiResult::UNSAFE_ADDRESS, $result->diagnosis());
    $this->assertSame([], $this->history);
  }

  /**
   * Tests that plain http to this machine is allowed.
   */
  public function testPlainHttpToThisMachineIsAllowed(): void {
    $GLOBALS['config']['sitebeam.settings']['base_url'] = 'http://127.0.0.1:4010';
    $this->container->get('config.factory')->reset('sitebeam.settings');

    $result = $this->client([new Response(400, [], '{"status":"ko","i18n_code":"invalid_payload"}')])->probeEmailApi();

    $this->assertTrue($result->provesEmailApi());
    $this->assertSame('http://127.0.0.1:4010/v1/email', (string) $this->history[0]['request']->getUri());
    $this->assertSame('{}', (string) $this->history[0]['request']->getBody());
  }

  /**
   * A client of the site's credentials whose HTTP answers are the given ones.
   */
  private function client(array $responses): ApiClient {
    $stack = HandlerStack::create(new MockHandler($responses));
    $stack->push(Middleware::history($this->history));
    return new ApiClient(new Client(['handler' => $stack]), $this->container->get('sitebeam.credentials_factory'));
  }

}
