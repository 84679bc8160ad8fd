<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Upgrade;

use PHPUnit\Framework\TestCase;

/**
 * A site that ran the previous release upgrades to this build, losing nothing.
 *
 * On the browser tests' site once they are done (tests/drupal/browser.sh runs
 * it through run.sh beside it): the module is uninstalled, the previous
 * release (tests/support/previous-release.sh) installed and configured, site
 * mail waits in its outbox while the instance fails; then the module's files
 * become this build's and the pending updates run as update.php runs them.
 * Every step is a PHP process of its own (upgrade-site.php); this test does
 * not boot Drupal itself.
 */
final class UpgradeTest extends TestCase {

  /**
   * What the owner set on the previous release, by config key.
   */
  private const SETTINGS = [
    'website' => 'upgrade.example',
    'tracker.keep_query' => 'ref',
    'tracker.respect_dnt' => FALSE,
    'visibility.roles' => ['content_editor'],
    'mail.route' => TRUE,
    'mail.outbox.lifetime' => 172800,
    'contact.recipient' => 'owner@upgrade.example',
    'contact.consent' => [
      'enabled' => TRUE,
      'label' => 'I agree to be answered.',
      'policy_url' => 'https://upgrade.example/privacy',
    ],
    'contact.flood_limit' => 9,
    'chat.enabled' => TRUE,
    'chat.models' => ['upgrade-model'],
    'chat.daily_limit' => 42,
    'chat.consent' => [
      'enabled' => TRUE,
      'label' => 'I agree to chat.',
      'policy_url' => '',
    ],
  ];

  /**
   * Outcome of each step, by name.
   *
   * @var array<string, array>
   */
  private static array $steps = [];

  /**
   * Everything the steps printed.
   */
  private static string $output = '';

  /**
   * What the php -S log gained while the test ran.
   */
  private static string $serverLog = '';

  /**
   * The marker in the subject of the mail kept in the outbox.
   */
  private static string $marker;

  /**
   * The stub's mail holding the marker after each of two cron runs.
   *
   * @var string[][]
   */
  private static array $delivered = [];

  /**
   * The front page, as a visitor gets it after the upgrade.
   */
  private static string $frontPage = '';

  /**
   * {@inheritdoc}
   */
  public static function setUpBeforeClass(): void {
    $server_log = (string) getenv('SITEBEAM_DRUPAL_SERVER_LOG');
    $server_log_size = is_file($server_log) ? filesize($server_log) : 0;
    self::$marker = 'upgrade' . bin2hex(random_bytes(4));
    try {
      $since = self::step('state')['last_wid'];
      self::step('uninstall');
      self::useModule((string) getenv('SITEBEAM_PREVIOUS_RELEASE_MODULE'));
      self::step('install');
      self::step('configure', (string) json_encode(['base_url' => getenv('STUB_URL')] + self::SETTINGS));
      // The instance fails the kept mail (only it: the marker is in its body)
      // until it recovers below.
      self::stub('PUT', '/__stub/faults', [
        'faults' => [
          [
            'method' => 'POST',
            'path_prefix' => '/v1/email',
            'status' => 503,
            'body_contains' => self::$marker,
          ],
        ],
      ]);
      self::step('send', self::$marker);
      self::$steps['before'] = self::step('state', (string) $since);
      self::useModule((string) getenv('SITEBEAM_CURRENT_MODULE'));
      self::step('update');
      self::stub('DELETE', '/__stub/faults');
      self::$steps['after'] = self::step('state', (string) $since);
      self::$frontPage = self::http((string) getenv('DRUPAL_URL') . '/')['body'];
      for ($run = 0; $run < 2; $run++) {
        self::$steps['deliver' . $run] = self::step('deliver');
        $subjects = array_column(array_column(self::stub('GET', '/__stub/emails')['emails'], 'message'), 'subject');
        self::$delivered[$run] = array_values(array_filter($subjects, static fn (string $subject): bool => str_contains($subject, self::$marker)));
      }
      self::$steps['last'] = self::step('state', (string) $since);
    }
    finally {
      self::useModule((string) getenv('SITEBEAM_CURRENT_MODULE'));
      self::stub('DELETE', '/__stub/faults');
      clearstatcache();
      if (is_file($server_log)) {
        self::$serverLog = (string) file_get_contents($server_log, FALSE, NULL, $server_log_size);
      }
    }
  }

  /**
   * The previous release ran, and kept the mail while the instance failed.
   */
  public function testThePreviousReleaseKeptTheMailWhileTheInstanceFailed(): void {
    $this->assertTrue(self::$steps['send']['sent'], 'the previous release did not keep the mail');
    $this->assertSame([['recipient' => 'upgrade@example.com', 'state' => 'waiting']], self::$steps['before']['outbox']);
  }

  /**
   * The updates ran, and none is left pending.
   */
  public function testTheUpdatesRanAndNoneIsLeftPending(): void {
    $this->assertSame([], self::$steps['update']['failed']);
    $after = self::$steps['after'];
    $this->assertSame(['updates' => [], 'post_updates' => []], $after['pending']);
    $this->assertFalse($after['entity_updates'], 'entity or field definitions need updates');
    preg_match_all('/^function sitebeam_update_(\d+)\(/m', (string) file_get_contents(getenv('SITEBEAM_CURRENT_MODULE') . '/sitebeam.install'), $numbers);
    $this->assertSame(max(array_map('intval', $numbers[1])), $after['schema']);
    $this->assertSame([], $after['requirement_errors'], "the status report's errors about the module or updates");
  }

  /**
   * Every setting is kept, and valid for this build's schema.
   */
  public function testEverySettingIsKept(): void {
    $before = self::$steps['before']['settings'];
    $after = self::$steps['after']['settings'];
    foreach (['base_url' => getenv('STUB_URL')] + self::SETTINGS as $key => $value) {
      $this->assertSame($value, self::valueAt($after, $key), $key);
    }
    // What the previous release had besides (its defaults) is kept too; what this build's updates added
    // beside it (new settings with their defaults) is not the previous release's to compare.
    $this->assertEquals($before, self::onlyKeysOf($before, $after));
    $this->assertSame([], self::$steps['after']['violations']);
  }

  /**
   * The mail kept in the outbox is delivered once the instance recovers.
   */
  public function testTheKeptMailIsDeliveredOnce(): void {
    $this->assertSame([['recipient' => 'upgrade@example.com', 'state' => 'waiting']], self::$steps['after']['outbox']);
    $this->assertSame([self::$marker . ' kept across the upgrade'], self::$delivered[0]);
    $this->assertSame([], self::$steps['deliver0']['outbox']);
    $this->assertSame(self::$delivered[0], self::$delivered[1], 'a second cron run sent it again');
  }

  /**
   * The tracker is still on the pages.
   */
  public function testTheTrackerIsStillOnThePages(): void {
    $page = new \DOMDocument();
    // libxml does not know HTML5's elements.
    libxml_use_internal_errors(TRUE);
    $this->assertTrue($page->loadHTML(self::$frontPage));
    $tags = (new \DOMXPath($page))->query('//script[@data-api]');
    $this->assertSame(1, $tags->length, 'the tracker tag on the front page');
    $this->assertSame(getenv('STUB_URL'), $tags->item(0)->getAttribute('data-api'));
    $this->assertSame('upgrade.example', $tags->item(0)->getAttribute('data-website'));
    $this->assertStringContainsString('/modules/custom/sitebeam/js/sitebeam.min.js', $tags->item(0)->getAttribute('src'));
  }

  /**
   * No PHP error, warning, notice or deprecation, logged or printed.
   */
  public function testNoPhpMessage(): void {
    $this->assertSame([], self::$steps['last']['php_messages'], 'PHP messages in the site log');
    $this->assertDoesNotMatchRegularExpression('/\b(Fatal error|Warning|Notice|Deprecated)\b/i', self::$output);
    $this->assertDoesNotMatchRegularExpression('/\b(Fatal error|Warning|Notice|Deprecated)\b/i', self::$serverLog);
  }

  /**
   * The value at a dotted config key.
   */
  private static function valueAt(array $data, string $key): mixed {
    foreach (explode('.', $key) as $part) {
      $data = $data[$part] ?? NULL;
    }
    return $data;
  }

  /**
   * The part of $data under the keys $shape has, at every depth.
   */
  private static function onlyKeysOf(array $shape, array $data): array {
    $kept = [];
    foreach ($shape as $key => $value) {
      if (!array_key_exists($key, $data)) {
        continue;
      }
      $kept[$key] = is_array($value) && is_array($data[$key]) && !array_is_list($value) ? self::onlyKeysOf($value, $data[$key]) : $data[$key];
    }
    return $kept;
  }

  /**
   * Points the site's module folder (modules/custom/sitebeam) at a codebase.
   */
  private static function useModule(string $folder): void {
    $link = getenv('DRUPAL_ROOT') . '/modules/custom/sitebeam';
    if (!is_dir($folder . '/src') || (is_link($link) && readlink($link) === $folder)) {
      return;
    }
    @unlink($link . '.next');
    if (!symlink($folder, $link . '.next') || !rename($link . '.next', $link)) {
      throw new \RuntimeException("cannot point $link at $folder");
    }
  }

  /**
   * Runs one step of upgrade-site.php and gives its JSON outcome.
   */
  private static function step(string $step, string $argument = ''): array {
    // The PHP running this test is the site's (SITEBEAM_PHP runs PHPUnit; inside
    // tests/support/php84's root it is that root's own).
    $command = [PHP_BINARY, __DIR__ . '/upgrade-site.php', $step];
    if ($argument !== '') {
      $command[] = $argument;
    }
    $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, (string) getenv('DRUPAL_ROOT'));
    $output = (string) stream_get_contents($pipes[1]);
    $status = proc_close($process);
    $lines = explode("\n", trim($output));
    $outcome = json_decode((string) array_pop($lines), TRUE);
    self::$output .= implode("\n", $lines);
    if ($status !== 0 || !is_array($outcome)) {
      throw new \RuntimeException("upgrade-site.php $step failed ($status):\n$output");
    }
    self::$steps[$step] = $outcome;
    return $outcome;
  }

  /**
   * One call to the stub's own API.
   */
  private static function stub(string $method, string $path, ?array $body = NULL): array {
    $options = [CURLOPT_CUSTOMREQUEST => $method];
    if ($body !== NULL) {
      $options[CURLOPT_POSTFIELDS] = json_encode($body);
      $options[CURLOPT_HTTPHEADER] = ['Content-Type: application/json'];
    }
    $answer = self::http(getenv('STUB_URL') . $path, $options);
    if ($answer['status'] >= 300) {
      throw new \RuntimeException("stub $method $path: {$answer['status']} {$answer['body']}");
    }
    return (array) json_decode($answer['body'], TRUE);
  }

  /**
   * One HTTP request; redirects are not followed.
   */
  private static function http(string $url, array $options = []): array {
    $curl = curl_init($url);
    curl_setopt_array($curl, $options + [CURLOPT_RETURNTRANSFER => TRUE, CURLOPT_TIMEOUT => 120]);
    $body = curl_exec($curl);
    if ($body === FALSE) {
      throw new \RuntimeException("$url: " . curl_error($curl));
    }
    return ['status' => (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE), 'body' => (string) $body];
  }

}
