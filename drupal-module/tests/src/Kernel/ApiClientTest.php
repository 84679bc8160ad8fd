<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Api\InstanceHost;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use GuzzleHttp\Client;
use GuzzleHttp\Handler\MockHandler;
use GuzzleHttp\Handler\StreamHandler;
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

  use ServerStubTrait;

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
    // The stub (the real service too, in these tests) listens on 127.0.0.1.
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, TRUE);
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
   * Tests that the request connects to the addresses that were checked.
   *
   * A name that resolved to a public address for the check cannot resolve
   * to a private one for the request.
   */
  public function testRequestIsPinnedToTheCheckedAddresses(): void {
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, NULL);
    $this->container->set('sitebeam.instance_host', new class() extends InstanceHost {

      /**
       * The instance's name resolves to an address on the internet.
       */
      protected function addresses(string $host): array {
        return ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'];
      }

    });
    $result = $this->client([new Response(200, [], '{"status":"ok","models":["mock"]}')])->listModels();

    $this->assertTrue($result->isSuccess(), $result->logSummary());
    $this->assertSame(
      ['api.example.test:443:93.184.216.34,[2606:2800:220:1:248:1893:25c8:1946]'],
      $this->history[0]['options']['curl'][CURLOPT_RESOLVE] ?? NULL,
    );
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
   * Tests that plain http to a localhost name goes to 127.0.0.1, no DNS asked.
   *
   * The name travels in Host only; over https the name stays, the
   * certificate guarding the token.
   */
  public function testLocalhostNamesConnectToLoopbackWithoutDns(): void {
    $GLOBALS['config']['sitebeam.settings']['base_url'] = 'http://evil.localhost:4010';
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->client([new Response(200, [], '{"status":"ok","models":["mock"]}')])->listModels();
    $this->assertSame('http://127.0.0.1:4010/v1/ai/models', (string) $this->history[0]['request']->getUri());
    $this->assertSame('evil.localhost:4010', $this->history[0]['request']->getHeaderLine('Host'));

    $GLOBALS['config']['sitebeam.settings']['base_url'] = 'https://api.localhost';
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->client([new Response(200, [], '{"status":"ok","models":["mock"]}')])->listModels();
    $this->assertSame('https://api.localhost/v1/ai/models', (string) $this->history[1]['request']->getUri());
  }

  /**
   * Tests that the real stub answers at a *.localhost name DNS does not know.
   *
   * PHP's stream handler resolves names with the system's resolver (curl
   * already keeps *.localhost to itself): the call succeeds only because the
   * module connects to 127.0.0.1 itself.
   */
  public function testRealStubAnswersAtLocalhostNameWithoutDns(): void {
    $port = parse_url($this->stubUrl(), PHP_URL_PORT);
    $name = 'sitebeam-kernel.localhost';
    $this->assertFalse(gethostbynamel($name), "$name must be unknown to this machine's resolver for this test to prove anything.");
    $GLOBALS['config']['sitebeam.settings']['base_url'] = "http://$name:$port";
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->setSetting('sitebeam_api_token', 'dev-token');

    $client = new ApiClient(new Client(['handler' => HandlerStack::create(new StreamHandler())]), $this->container->get('sitebeam.credentials_factory'), $this->container->get('sitebeam.instance_host'));
    $result = $client->listModels();

    $this->assertTrue($result->isSuccess(), $result->logSummary());
    $this->assertNotSame([], $result->models());
  }

  /**
   * Tests that the connection goes where the check said, whatever DNS says.
   *
   * The check resolved the name to this machine, where the test listens; at
   * connect time the name resolves to nothing (.invalid never does). The
   * site's client for the instance connects to the checked address: the
   * pin (CURLOPT_RESOLVE) holds. PHP's stream handler would resolve the name
   * again, and connect nowhere (or wherever DNS now says).
   */
  public function testConnectionGoesToTheCheckedAddressWhateverDnsSaysAtConnectTime(): void {
    $listener = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr((string) strrchr(stream_socket_get_name($listener, FALSE), ':'), 1);
    $name = 'rebound-' . bin2hex(random_bytes(4)) . '.invalid';
    $this->assertFalse(gethostbynamel($name), "$name must not resolve for this test to prove anything.");
    $this->config('sitebeam.settings')->set('base_url', "https://$name:$port")->save();
    $checked = new class($name, $port) extends InstanceHost {

      public function __construct(private string $name, private int $port) {}

      /**
       * {@inheritdoc}
       */
      public function check(string $url): array {
        return [NULL, [$this->name . ':' . $this->port . ':127.0.0.1']];
      }

    };
    $client = new ApiClient($this->container->get('sitebeam.http_client'), $this->container->get('sitebeam.credentials_factory'), $checked, NULL, 1);

    $result = $client->listModels();

    $this->assertFalse($result->isSuccess(), 'Nothing speaks TLS there.');
    $this->assertNotFalse(@stream_socket_accept($listener, 0), 'The connection reached the checked address: ' . $result->logSummary());
    fclose($listener);
  }

  /**
   * A client of the site's credentials whose HTTP answers are the given ones.
   */
  private function client(array $responses): ApiClient {
    $stack = HandlerStack::create(new MockHandler($responses));
    $stack->push(Middleware::history($this->history));
    return new ApiClient(new Client(['handler' => $stack]), $this->container->get('sitebeam.credentials_factory'), $this->container->get('sitebeam.instance_host'));
  }

}
