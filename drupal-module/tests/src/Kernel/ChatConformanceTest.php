<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\Tests\sitebeam\Traits\ConformanceConfigTrait;
use Drupal\Tests\sitebeam\Traits\MockedApiTrait;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Every case of contract/conformance/chat.cases.json, on real core.
 *
 * Requests go through Drupal's HTTP kernel; the API behind is a recording
 * fake in the http_client service, so that each case sets its answer and
 * checks the one prompt it received.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class ChatConformanceTest extends KernelTestBase {

  use ConformanceConfigTrait;
  use MockedApiTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  private const SITE = 'http://localhost';
  private const OTHER = 'https://evil.example';
  private const TOKEN = 'chat-conformance-token-4f1c';

  /**
   * The owner's configuration of the file's "endpoint".
   */
  private array $endpoint;

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->config('user.role.anonymous')->set('permissions', ['access content'])->save();
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
    $this->installMockedApi();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests every case of the shared file.
   */
  public function testEveryCaseOfTheSharedFile(): void {
    $file = getenv('SITEBEAM_CONTRACT_DIR') . '/conformance/chat.cases.json';
    $this->assertFileExists($file, 'SITEBEAM_CONTRACT_DIR names the contract folder (tests/drupal/kernel.sh sets it).');
    $cases = json_decode((string) file_get_contents($file), TRUE);
    $this->endpoint = $cases['endpoint'];
    $failures = [];
    foreach ($cases['cases'] as $index => $case) {
      $problem = $this->runCase($case, $index);
      if ($problem !== NULL) {
        $failures[] = $case['id'] . ': ' . $problem;
      }
    }
    // Printed by tests/drupal/kernel.sh: output here would break the
    // isolated test process.
    $report = sprintf("chat conformance: %d of %d cases passed (drupal)\n", count($cases['cases']) - count($failures), count($cases['cases']))
      . implode('', array_map(static fn (string $failure): string => "  failed: $failure\n", $failures));
    if (getenv('SITEBEAM_CONFORMANCE_REPORT')) {
      file_put_contents(getenv('SITEBEAM_CONFORMANCE_REPORT'), $report, FILE_APPEND);
    }
    $this->assertGreaterThanOrEqual(60, count($cases['cases']));
    $this->assertSame([], $failures, $report);
  }

  /**
   * Runs one case from a client address of its own; NULL when it passes.
   */
  private function runCase(array $case, int $index): ?string {
    $client = sprintf('10.%d.%d.2', intdiv($index, 200), $index % 200);
    $config = ($case['config'] ?? []) + [
      'models' => $this->endpoint['models'],
      'settings' => $this->endpoint['settings'],
      'rateLimitCount' => $this->endpoint['rateLimitCount'],
    ];
    $settings = $this->config('sitebeam.settings')
      ->set('base_url', 'https://api.example.test')
      ->set('api_token', self::TOKEN)
      ->set('chat.enabled', TRUE)
      ->set('chat.models', $config['models'])
      ->set('chat.flood_limit', $config['rateLimitCount'])
      ->set('chat.flood_window', $this->endpoint['rateLimitWindowS'])
      ->set('chat.daily_limit', $config['dailyLimit'] ?? ChatSettings::DEFAULT_DAILY_LIMIT)
      ->set('chat.consent', self::consentSetting($config['consent'] ?? NULL));
    foreach ($config['settings'] as $name => $value) {
      $settings->set('chat.settings.' . $name, $value);
    }
    $settings->save();
    // Each case starts the day afresh, as a new endpoint would.
    $this->container->get('database')->truncate(DailyChatBudget::TABLE)->execute();
    $upstream = $case['upstream'] ?? NULL;
    $this->promptAnswer = match (TRUE) {
      $upstream === 'unreachable' => 'unreachable',
      is_array($upstream) => [$upstream['status'], $upstream['headers'], $upstream['body']],
      default => [200, [], ['response' => ['an answer'], 'score' => 0.5, 'status' => 'ok']],
    };
    for ($i = 0; $i < ($case['repeat'] ?? 0); $i++) {
      $this->send($case['repeatRequest'] ?? $case['request'], $client);
    }
    $this->apiRequests = [];
    return $this->mismatch($this->resolve($case['expect']), $this->send($case['request'], $client), $case['request']['method']);
  }

  /**
   * What differs from the expectation, or NULL.
   */
  private function mismatch(array $expect, Response $response, string $method): ?string {
    $body = (string) $response->getContent();
    if ($response->getStatusCode() !== $expect['status']) {
      return sprintf('status %d instead of %d: %s', $response->getStatusCode(), $expect['status'], substr($body, 0, 200));
    }
    if (str_contains($response->headers->__toString() . "\n" . $body, self::TOKEN)) {
      return 'the answer holds the API token';
    }
    if ($method !== 'OPTIONS' && !str_contains((string) $response->headers->get('Cache-Control'), 'no-store')) {
      return 'Cache-Control is ' . $response->headers->get('Cache-Control');
    }
    foreach ($expect['headers'] ?? [] as $name => $rule) {
      $actual = (string) $response->headers->get($name, '');
      $ok = match (TRUE) {
        $rule === '$SECONDS' => preg_match('/^[1-9]\d*$/D', $actual) === 1,
        str_starts_with($rule, '$CONTAINS:') => str_contains($actual, substr($rule, 10)),
        default => $actual === $rule,
      };
      if (!$ok) {
        return sprintf('header %s is "%s", expected %s', $name, $actual, $rule);
      }
    }
    $type = (string) $response->headers->get('Content-Type');
    if (isset($expect['contentType']) && !str_starts_with($type, $expect['contentType'])) {
      return 'Content-Type is ' . $type;
    }
    $json = str_starts_with($type, 'application/json') ? json_decode($body, TRUE) : NULL;
    if (isset($expect['i18n_code']) && $json !== NULL) {
      if (($json['status'] ?? NULL) !== 'ko' || ($json['i18n_code'] ?? NULL) !== $expect['i18n_code'] || !is_string($json['error'] ?? NULL)) {
        return sprintf('refusal %s instead of i18n_code %s', substr($body, 0, 200), $expect['i18n_code']);
      }
      if (($json['field'] ?? NULL) !== ($expect['field'] ?? NULL)) {
        return sprintf('field is %s instead of %s', json_encode($json['field'] ?? NULL), json_encode($expect['field'] ?? NULL));
      }
    }
    foreach ($expect['body'] ?? [] as $member => $value) {
      if (!is_array($json) || !array_key_exists($member, $json) || $json[$member] !== $value) {
        return sprintf('%s is %s instead of %s', $member, json_encode($json[$member] ?? NULL), json_encode($value));
      }
    }
    foreach ($expect['bodyAbsent'] ?? [] as $member) {
      if (!is_array($json) || array_key_exists($member, $json)) {
        return "$member should be absent: " . substr($body, 0, 200);
      }
    }
    foreach ($expect['bodyLacks'] ?? [] as $piece) {
      if (str_contains($body, $piece)) {
        return "the answer holds \"$piece\"";
      }
    }
    foreach ($expect['htmlContains'] ?? [] as $piece) {
      if (!str_contains($body, $piece)) {
        return "the page lacks \"$piece\"";
      }
    }
    foreach ($expect['htmlLacks'] ?? [] as $piece) {
      if (str_contains($body, $piece)) {
        return "the page holds \"$piece\"";
      }
    }
    if (array_key_exists('prompt', $expect)) {
      $expected = $expect['prompt'] === NULL ? [] : [$expect['prompt']];
      $received = $this->promptsReceived();
      if (self::sorted($received) !== self::sorted($expected)) {
        return sprintf('the API received %s instead of %s', substr(json_encode($received), 0, 300), substr(json_encode($expected), 0, 300));
      }
    }
    return NULL;
  }

  /**
   * Sends one request of a case through the HTTP kernel.
   */
  private function send(array $spec, string $client): Response {
    $spec = $this->resolve($spec);
    $server = ['REMOTE_ADDR' => $client];
    foreach ($spec['headers'] ?? [] as $name => $value) {
      $server['HTTP_' . strtoupper(str_replace('-', '_', $name))] = $value;
    }
    $content_type = $spec['contentType'] ?? NULL;
    if ($content_type !== NULL) {
      $server['CONTENT_TYPE'] = $content_type;
    }
    $content = match (TRUE) {
      isset($spec['bodyBytes']) => '{"message":"' . str_repeat('x', $spec['bodyBytes'] - 14) . '"}',
      is_array($spec['body'] ?? NULL) && str_starts_with((string) $content_type, 'application/x-www-form-urlencoded')
        => http_build_query($spec['body'], '', '&', PHP_QUERY_RFC3986),
      is_array($spec['body'] ?? NULL) => json_encode($spec['body'], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES),
      default => $spec['body'] ?? NULL,
    };
    if ($content !== NULL && empty($spec['chunked'])) {
      $server['CONTENT_LENGTH'] = (string) strlen($content);
    }
    $parameters = [];
    if ($content !== NULL && str_starts_with((string) $content_type, 'application/x-www-form-urlencoded')) {
      parse_str($content, $parameters);
    }
    $request = Request::create('/sitebeam/chat', $spec['method'], $parameters, [], [], $server, $content);
    if ($content_type === NULL) {
      // Request::create() gives every POST a form Content-Type.
      $request->headers->remove('Content-Type');
      $request->server->remove('CONTENT_TYPE');
    }
    $response = $this->container->get('http_kernel')->handle($request);
    $this->container->get('http_kernel')->terminate($request, $response);
    return $response;
  }

  /**
   * Replaces the origin placeholders and expands {"$repeat": [text, n]}.
   */
  private function resolve(mixed $value): mixed {
    if (is_string($value)) {
      return strtr($value, [
        '$ALLOWED_ORIGIN' => self::SITE,
        '$SELF_ORIGIN' => self::SITE,
        '$OTHER_ORIGIN' => self::OTHER,
      ]);
    }
    if (is_array($value) && isset($value['$repeat'])) {
      return str_repeat($value['$repeat'][0], $value['$repeat'][1]);
    }
    return is_array($value) ? array_map($this->resolve(...), $value) : $value;
  }

  /**
   * The value with every object's keys sorted, for comparing JSON objects.
   */
  private static function sorted(mixed $value): mixed {
    if (!is_array($value)) {
      return $value;
    }
    if (!array_is_list($value)) {
      ksort($value);
    }
    return array_map(self::sorted(...), $value);
  }

}
