<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\DependencyInjection\ContainerBuilder;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\Tests\sitebeam\Bench\Before\Outbox as OutboxBefore;
use Drupal\Tests\sitebeam\Bench\Before\OutboxSender as OutboxSenderBefore;
use Drupal\Tests\sitebeam\Kernel\Doubles\SimulatedClock;
use Drupal\Tests\sitebeam\Traits\OutboxSiteTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use PHPUnit\Framework\Attributes\Group;

/**
 * Benchmark, not a test: how soon a backlog goes once the instance is back.
 *
 * Run by tests/drupal/bench.sh (npm run bench), never by the test suites
 * (its name does not end in Test). 200 mails wait after an outage long
 * enough for their backoff to reach an hour; the instance comes back at
 * t = 0; cron runs every minute, the first time at t = 30 s. The clock of
 * the outbox is simulated from tick to tick, the sending is real (the stub
 * over HTTP). Printed: the simulated seconds from recovery to an empty
 * outbox and the real drain rate, for this code and for the outbox before
 * issue #35 (its classes, renamed, from the commit bench.sh names).
 *
 * @group sitebeam_bench
 */
#[Group('sitebeam_bench')]
final class OutboxDrainBench extends KernelTestBase {

  use ServerStubTrait;
  use OutboxSiteTrait;

  private const MAILS = 200;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'dblog', 'sitebeam', 'sitebeam_test'];

  /**
   * The outbox's clock: real time until the bench sets it.
   */
  private SimulatedClock $clock;

  /**
   * {@inheritdoc}
   */
  public function register(ContainerBuilder $container): void {
    parent::register($container);
    $this->registerOutboxServices($container);
  }

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->clock = new SimulatedClock();
    // Before any service of the outbox is built.
    $this->container->set('datetime.time', $this->clock);
    $this->setUpOutboxSite();
  }

  /**
   * Measures both outboxes and writes the numbers to SITEBEAM_BENCH_REPORT.
   */
  public function testDrainAfterRecovery(): void {
    $lines = [sprintf('drupal outbox: %d mails waiting after a one-hour backoff, the instance back at t = 0, cron every 60 s from t = 30 s (clock simulated, sending real, the stub over HTTP)', self::MAILS)];
    $hooks = $this->container->get('Drupal\sitebeam\Hook\OutboxHooks');
    $lines[] = $this->line('this branch', $this->measure($this->outbox(), $hooks->cron(...)));

    $before = getenv('SITEBEAM_BENCH_BEFORE');
    if ($before !== FALSE && is_file("$before/OutboxSender.php")) {
      foreach (['Backoff', 'Outbox', 'OutboxSender'] as $class) {
        require_once "$before/$class.php";
      }
      $outbox = new OutboxBefore($this->container->get('database'), $this->container->get('config.factory'), $this->clock);
      $sender = new OutboxSenderBefore($outbox, $this->container->get('sitebeam.api_client'), $this->container->get('lock'), $this->clock, $this->container->get('logger.channel.sitebeam'));
      $lines[] = $this->line('before #35 (' . getenv('SITEBEAM_BENCH_BEFORE_REF') . ')', $this->measure($outbox, static function () use ($sender): void {
        $sender->deliverDue();
      }));
    }
    $report = implode("\n", $lines) . "\n";
    if (getenv('SITEBEAM_BENCH_REPORT')) {
      file_put_contents((string) getenv('SITEBEAM_BENCH_REPORT'), $report);
    }
    $this->addToAssertionCount(1);
  }

  /**
   * Fills the outbox, brings the instance back, ticks cron until it is empty.
   *
   * @return array{0: int|null, 1: float}
   *   The simulated seconds from recovery to an empty outbox (NULL: not
   *   empty two hours later), and the real seconds the ticks took.
   */
  private function measure(object $outbox, callable $cron): array {
    $start = time();
    $this->clock->now = $start - 3600;
    $this->container->get('database')->delete(Outbox::TABLE)->execute();
    $this->container->get('state')->delete('sitebeam.delivery');
    // The outage as the site saw it: the instance answered 503 again and again.
    for ($i = 0; $i < 3; $i++) {
      $this->container->get('sitebeam.delivery_state')->record(ApiResult::fromResponse(503, '{"status":"ko"}'));
    }
    $payload = fn (int $i): array => [
      'to' => "to$i@example.com",
      'subject' => "Backlog $i",
      'content' => '<p>Mail ' . $i . ' of the backlog</p>',
    ];
    for ($i = 1; $i <= self::MAILS; $i++) {
      $this->outbox()->hold($payload($i), 'sitebeam_bench', 'HTTP 503', $start);
    }
    // Tried last during the outage's last hour, the next try an hour later.
    foreach (range(1, self::MAILS) as $i) {
      $this->container->get('database')->update(Outbox::TABLE)
        ->fields(['tries' => 8, 'next_try' => $start + intdiv(3600 * $i, self::MAILS)])
        ->condition('subject', "Backlog $i")
        ->execute();
    }
    $spent = 0.0;
    for ($tick = 30; $tick <= 7200; $tick += 60) {
      $this->clock->now = $start + $tick;
      $began = microtime(TRUE);
      $cron();
      $spent += microtime(TRUE) - $began;
      if ($outbox->size()[0] === 0) {
        return [$tick, $spent];
      }
    }
    return [NULL, $spent];
  }

  /**
   * One line of the report.
   */
  private function line(string $label, array $measured): string {
    [$seconds, $spent] = $measured;
    return sprintf('  %-28s empty %s after recovery; drain %.1f mails/s (%.2f s of sending)', $label . ':', $seconds === NULL ? 'not within 2 h' : sprintf('%s s', number_format($seconds)), self::MAILS / max($spent, 0.001), $spent);
  }

}
