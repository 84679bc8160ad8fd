<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Contact\ContactTicket;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Outbox\DeliveryState;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\Tests\sitebeam\Traits\ConformanceConfigTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Exception\SuspiciousOperationException;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Every case of contract/conformance/contact.cases.json, on real core.
 *
 * Requests go through Drupal's HTTP kernel; the API behind is the real stub.
 * The endpoint has an outbox: a case's expectWithOutbox, when it has one, is
 * what it must answer (202 queued), and the message must wait in the outbox.
 * The test sends with a stub account of its own, whose token the faults
 * match, so no other request takes or sees them.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class ContactConformanceTest extends KernelTestBase {

  use ConformanceConfigTrait;
  use ServerStubTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  private const SITE = 'http://localhost';
  private const OTHER = 'https://evil.example';

  /**
   * Marks the answer standing for Drupal's own refusal of a malformed Host.
   */
  private const REFUSED_BY_DRUPAL = 'X-Test-Refused-By-Drupal';

  /**
   * How many requests Drupal refused before the module saw them.
   */
  private int $refusalsSeen = 0;

  /**
   * The cases checked against expectWithOutbox.
   */
  private int $outboxCases = 0;

  /**
   * This test's own stub token.
   */
  private string $token;

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('sitebeam', [Outbox::TABLE]);
    $this->config('system.site')->set('mail', 'owner@example.com')->set('name', 'Kernel Site')->save();
    $this->token = $this->createStubAccount();
    $this->connectToStub($this->token);
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests that every case of the shared file.
   */
  public function testEveryCaseOfTheSharedFile(): void {
    $file = getenv('SITEBEAM_CONTRACT_DIR') . '/conformance/contact.cases.json';
    $this->assertFileExists($file, 'SITEBEAM_CONTRACT_DIR names the contract folder (tests/drupal/kernel.sh sets it).');
    $cases = json_decode((string) file_get_contents($file), TRUE)['cases'];
    $failures = [];
    foreach ($cases as $index => $case) {
      $problem = $this->runCase($case, $index);
      if ($problem !== NULL) {
        $failures[] = $case['id'] . ': ' . $problem;
      }
    }
    // Printed by tests/drupal/kernel.sh: output here would break the
    // isolated test process.
    $report = sprintf("contact conformance: %d of %d cases passed (drupal)\n", count($cases) - count($failures), count($cases))
      . sprintf("  %d of them refused by Drupal itself before the module (a malformed Host: the server refusal those cases accept)\n", $this->refusalsSeen)
      . sprintf("  %d of them checked against expectWithOutbox (this endpoint has an outbox: 202 queued, the message waits in it)\n", $this->outboxCases)
      . implode('', array_map(static fn (string $failure): string => "  failed: $failure\n", $failures));
    if (getenv('SITEBEAM_CONFORMANCE_REPORT')) {
      file_put_contents(getenv('SITEBEAM_CONFORMANCE_REPORT'), $report, FILE_APPEND);
    }
    $this->assertSame([], $failures, $report);
  }

  /**
   * Runs one case from a client address of its own; NULL when it passes.
   */
  private function runCase(array $case, int $index): ?string {
    $client = sprintf('10.%d.%d.1', intdiv($index, 200), $index % 200);
    $api = $case['apiAnswers'] ?? NULL;
    if (is_int($api)) {
      // Only the case's own calls: they carry this test's own token.
      $this->injectFault(['method' => 'POST', 'path_prefix' => '/v1/email', 'status' => $api], ['headers' => [Contract::AUTH_HEADER => $this->token]]);
    }
    elseif ($api === 'unreachable') {
      $this->config('sitebeam.settings')->set('base_url', 'http://127.0.0.1:9')->save();
    }
    $consent = $case['config']['consent'] ?? NULL;
    if ($consent !== NULL) {
      $this->config('sitebeam.settings')->set('contact.consent', self::consentSetting($consent))->save();
    }
    try {
      for ($i = 0; $i < ($case['repeat'] ?? 0); $i++) {
        $this->send($case['repeatRequest'] ?? $case['request'], $client);
      }
      if (isset($case['expect']['mailContains'])) {
        $this->stub('DELETE', '/__stub/emails');
      }
      if (isset($case['expectWithOutbox'])) {
        $this->outboxCases++;
        $waiting = count($this->container->get('sitebeam.outbox')->all());
        return $this->mismatch($case['expectWithOutbox'], $this->send($case['request'], $client))
          ?? (count($this->container->get('sitebeam.outbox')->all()) === $waiting + 1 ? NULL : 'the message is not in the outbox');
      }
      return $this->mismatch($case['expect'], $this->send($case['request'], $client)) ?? $this->mailMismatch($case['expect']['mailContains'] ?? NULL);
    }
    finally {
      if ($api !== NULL) {
        $this->resetStub();
        $this->config('sitebeam.settings')->set('base_url', $this->stubUrl())->save();
        // Each case meets an instance of its own: no breaker left open by
        // an unreachable one.
        $this->container->get('state')->delete(DeliveryState::KEY);
      }
      if ($consent !== NULL) {
        $this->config('sitebeam.settings')->set('contact.consent', self::consentSetting(NULL))->save();
      }
    }
  }

  /**
   * What differs from the expectation, or NULL.
   */
  private function mismatch(array $expect, Response $response): ?string {
    $body = (string) $response->getContent();
    if ($response->headers->has(self::REFUSED_BY_DRUPAL)) {
      $refused = $expect['status'] === 400 && !empty($expect['acceptServerRefusal']);
      return $refused ? NULL : 'refused by Drupal itself: ' . $response->headers->get(self::REFUSED_BY_DRUPAL);
    }
    if ($response->getStatusCode() !== $expect['status']) {
      return sprintf('status %d instead of %d: %s', $response->getStatusCode(), $expect['status'], substr($body, 0, 200));
    }
    $json = json_decode($body, TRUE);
    foreach (['i18n_code' => $expect['i18n_code'] ?? NULL] + ($expect['json'] ?? []) as $member => $value) {
      if ($value !== NULL && ($json[$member] ?? NULL) !== $value) {
        return sprintf('%s is %s instead of %s', $member, json_encode($json[$member] ?? NULL), json_encode($value));
      }
    }
    if (array_key_exists('field', $expect) && ($json['field'] ?? NULL) !== $expect['field']) {
      return sprintf('field is %s instead of %s', json_encode($json['field'] ?? NULL), json_encode($expect['field']));
    }
    foreach ($expect['jsonHas'] ?? [] as $member) {
      if (!is_string($json[$member] ?? NULL) || $json[$member] === '') {
        return "$member is missing";
      }
    }
    if (isset($expect['contentType']) && !str_starts_with((string) $response->headers->get('Content-Type'), $expect['contentType'])) {
      return 'Content-Type is ' . $response->headers->get('Content-Type');
    }
    foreach ($expect['headers'] ?? [] as $name => $rule) {
      $actual = (string) $response->headers->get($name, '');
      $ok = match (TRUE) {
        is_string($rule) => $actual === $this->placeholders($rule),
        isset($rule['contains']) => str_contains($actual, $rule['contains']),
        isset($rule['between']) => ctype_digit($actual) && (int) $actual >= $rule['between'][0] && (int) $actual <= $rule['between'][1],
      };
      if (!$ok) {
        return sprintf('header %s is "%s", expected %s', $name, $actual, json_encode($rule));
      }
    }
    return NULL;
  }

  /**
   * What the one mail sent lacks of the expected texts, or NULL.
   *
   * @param string[]|null $texts
   *   The case's expect.mailContains; NULL: no mail is checked.
   */
  private function mailMismatch(?array $texts): ?string {
    if ($texts === NULL) {
      return NULL;
    }
    $emails = $this->stubEmails();
    if (count($emails) !== 1) {
      return sprintf('%d mails sent instead of one', count($emails));
    }
    foreach ($texts as $text) {
      if (!str_contains((string) ($emails[0]['content'] ?? ''), $text)) {
        return sprintf('the mail lacks "%s": %s', $text, substr((string) ($emails[0]['content'] ?? ''), 0, 300));
      }
    }
    return NULL;
  }

  /**
   * Sends one request of a case through the HTTP kernel.
   */
  private function send(array $spec, string $client): Response {
    $server = ['REMOTE_ADDR' => $client];
    foreach ($spec['headers'] ?? [] as $name => $value) {
      $server['HTTP_' . strtoupper(str_replace('-', '_', $name))] = $this->placeholders($value);
    }
    if (($spec['contentType'] ?? NULL) !== NULL) {
      $server['CONTENT_TYPE'] = $spec['contentType'];
    }
    $content = isset($spec['bodyBytes']) ? str_repeat('a', $spec['bodyBytes']) : $this->encodeBody($spec['body'] ?? NULL, (string) ($spec['contentType'] ?? ''));
    if ($content !== NULL && empty($spec['chunked'])) {
      $server['CONTENT_LENGTH'] = (string) strlen($content);
    }
    $parameters = [];
    if ($content !== NULL && str_starts_with((string) ($spec['contentType'] ?? ''), 'application/x-www-form-urlencoded')) {
      parse_str($content, $parameters);
    }
    $request = Request::create('/sitebeam/contact', $spec['method'], $parameters, [], [], $server, $content);
    if (($spec['contentType'] ?? NULL) === NULL) {
      // Request::create() gives every POST a form Content-Type.
      $request->headers->remove('Content-Type');
      $request->server->remove('CONTENT_TYPE');
    }
    try {
      $response = $this->container->get('http_kernel')->handle($request);
    }
    catch (SuspiciousOperationException $e) {
      // DrupalKernel::handle() answers a malformed Host with a 400 of its own
      // before any module runs: the server refusal such cases accept.
      $this->refusalsSeen++;
      return new Response('', 400, [self::REFUSED_BY_DRUPAL => $e->getMessage()]);
    }
    $this->container->get('http_kernel')->terminate($request, $response);
    return $response;
  }

  /**
   * The body as the case's content type encodes it, placeholders replaced.
   */
  private function encodeBody(array|string|null $body, string $content_type): ?string {
    if (!is_array($body)) {
      return $body;
    }
    $raw = [];
    foreach ($body as $key => $value) {
      if (is_array($value) && isset($value['$bytes'])) {
        $raw[$key] = hex2bin($value['$bytes']);
        $body[$key] = "\u{E000}raw:$key\u{E000}";
      }
      elseif (is_array($value) && isset($value['$ticket'])) {
        $body[$key] = $this->ticket($value['$ticket']);
      }
    }
    if (str_starts_with($content_type, 'application/json')) {
      $json = json_encode($body, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
      foreach ($raw as $key => $bytes) {
        $json = str_replace("\u{E000}raw:$key\u{E000}", $bytes, $json);
      }
      return $json;
    }
    $pairs = [];
    foreach ($body as $key => $value) {
      $pairs[] = rawurlencode((string) $key) . '=' . rawurlencode($raw[$key] ?? (string) $value);
    }
    return implode('&', $pairs);
  }

  /**
   * A ticket minted age_ms ago by the module's own code, maybe tampered with.
   */
  private function ticket(array $spec): string {
    $tickets = $this->container->get('sitebeam.contact_ticket');
    $issued = (int) floor(microtime(TRUE) * 1000) - $spec['age_ms'];
    return match ($spec['tamper'] ?? NULL) {
      'signature' => $issued . '.' . str_repeat('A', 43),
      'time' => ($issued - 60000) . '.' . explode('.', $tickets->issue($issued))[1],
      'secret' => $issued . '.' . ContactTicket::sign((string) $issued, 'not-the-endpoint-secret'),
      default => $tickets->issue($issued),
    };
  }

  /**
   * Replaces the origin placeholders at the start of a header value.
   */
  private function placeholders(string $value): string {
    return strtr($value, ['$ALLOWED_ORIGIN' => self::SITE, '$SELF_ORIGIN' => self::SITE, '$OTHER_ORIGIN' => self::OTHER]);
  }

}
