<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

use Drupal\sitebeam\Api\InstanceHost;
use Drupal\sitebeam\Contract;
use GuzzleHttp\Client;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Promise\Create;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Psr7\Response;
use Psr\Http\Message\RequestInterface;

/**
 * Puts a recording fake of the API behind Drupal's http_client.
 *
 * Call installMockedApi() in setUp(), before anything uses the client.
 */
trait MockedApiTrait {

  /**
   * What the API answers a prompt: [status, headers, body] or "unreachable".
   */
  protected array|string $promptAnswer = [200, [], ['response' => ['an answer'], 'score' => 0.5, 'status' => 'ok']];

  /**
   * What the API answers other paths, as [status, raw body] by path.
   *
   * A path not listed gets the default answers of installMockedApi().
   *
   * @var array<string, array{0: int, 1: string}>
   */
  protected array $rawAnswers = [];

  /**
   * Every request the API received: method, path, headers, decoded body.
   *
   * @var array<int, array{method: string, path: string, headers: array, body: mixed}>
   */
  protected array $apiRequests = [];

  /**
   * Replaces the http_client service with the recording fake.
   */
  protected function installMockedApi(): void {
    $handler = function (RequestInterface $request): PromiseInterface {
      $path = $request->getUri()->getPath();
      $this->apiRequests[] = [
        'method' => $request->getMethod(),
        'path' => $path,
        'headers' => $request->getHeaders(),
        'body' => json_decode((string) $request->getBody(), TRUE),
      ];
      $raw = $this->rawAnswers[$path] ?? NULL;
      if ($raw !== NULL) {
        return Create::promiseFor(new Response($raw[0], ['Content-Type' => 'application/json'], $raw[1]));
      }
      if ($path === Contract::PATH_PROMPT) {
        if ($this->promptAnswer === 'unreachable') {
          return Create::rejectionFor(new ConnectException('Connection refused', $request));
        }
        [$status, $headers, $body] = $this->promptAnswer;
        return Create::promiseFor(new Response($status, $headers + ['Content-Type' => 'application/json'], json_encode($body)));
      }
      if ($path === Contract::PATH_MODELS) {
        return self::jsonAnswer(200, ['models' => ['mock', 'log', 'nltksentiment'], 'status' => 'ok']);
      }
      if (str_starts_with($path, Contract::PATH_MODEL_PREFIX)) {
        $model = substr($path, strlen(Contract::PATH_MODEL_PREFIX));
        return self::jsonAnswer(202, ['status' => 'ok', 'model' => $model, 'state' => 'loading']);
      }
      return Create::promiseFor(new Response(404, [], '{"status":"ko"}'));
    };
    $client = new Client(['handler' => HandlerStack::create($handler)]);
    $this->container->set('http_client', $client);
    $this->container->set('sitebeam.http_client', $client);
    $this->container->set('sitebeam.instance_host', new class() extends InstanceHost {

      /**
       * The fake API's names resolve to an address on the internet.
       */
      protected function addresses(string $host): array {
        return ['93.184.216.34'];
      }

    });
  }

  /**
   * A JSON answer of the fake API.
   */
  private static function jsonAnswer(int $status, array $body): PromiseInterface {
    return Create::promiseFor(new Response($status, ['Content-Type' => 'application/json'], json_encode($body)));
  }

  /**
   * The bodies of the prompts the API received, oldest first.
   */
  protected function promptsReceived(): array {
    $prompts = array_filter($this->apiRequests, static fn (array $request): bool => $request['path'] === Contract::PATH_PROMPT);
    return array_values(array_column($prompts, 'body'));
  }

}
