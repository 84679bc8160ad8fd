<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Lock\PersistentDatabaseLockBackend;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\Outbox\OutboxSender;
use PHPUnit\Framework\Attributes\Group;

/**
 * The outbox: site mail the instance failed to take, sent again on cron.
 *
 * Every fault matches only this test's mail, by a marker in its subject.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class OutboxTest extends OutboxKernelTestBase {

  /**
   * Tests that 503, 429, a time-out and a stopped instance lose no mail.
   *
   * Each is accepted (the mail plugin answers TRUE), waits with a next try
   * that honours Retry-After, then cron sends each once, oldest first, with
   * its attachments as first written; the timed-out one at least once.
   */
  public function testPassingFailuresWaitThenCronDeliversEveryMailInOrder(): void {
    $m = $this->marker;
    $this->setStubFaults([
      ['status' => 503, 'retry_after' => 120, 'body_contains' => "$m-503"],
      ['status' => 429, 'retry_after' => 30, 'body_contains' => "$m-429"],
      ['delay_ms' => (static::apiTimeout() + 1) * 1000, 'times' => 1, 'body_contains' => "$m-slow"],
    ]);
    $attachments = [
      ['filecontent' => "a,b\n1,2\n", 'filename' => 'data.csv', 'filemime' => 'text/csv'],
      ['filecontent' => random_bytes(2048), 'filename' => 'photo.bin', 'filemime' => 'application/octet-stream'],
    ];
    $before = time();
    $this->assertTrue($this->sendProbe('ann@example.com', "$m-503", ['attachments' => $attachments]));
    $this->assertTrue($this->sendProbe('bob@example.com', "$m-429"));
    $this->assertTrue($this->sendProbe('cid@example.com', "$m-slow"));
    // The time-out opened the breaker; its pause ends.
    $this->breakerPauseEnds();
    // The instance stopped: nothing listens at its address any more.
    $this->config('sitebeam.settings')->set('base_url', 'http://127.0.0.1:' . $this->closedPort())->save();
    $this->assertTrue($this->sendProbe('dee@example.com', "$m-down"));
    $this->breakerPauseEnds();

    $items = $this->outbox()->all();
    $this->assertSame(["$m-503", "$m-429", "$m-slow", "$m-down"], array_map(static fn (OutboxItem $item): string => $item->subject, $items));
    foreach ($items as $item) {
      $this->assertSame(OutboxItem::WAITING, $item->state);
      $this->assertSame(1, $item->tries);
      $this->assertLessThanOrEqual(time() + 3600, $item->nextTry);
    }
    $this->assertGreaterThanOrEqual($before + 120, $items[0]->nextTry, "The 503's Retry-After: 120 is honoured.");
    $this->assertGreaterThanOrEqual($before + 30, $items[1]->nextTry, "The 429's Retry-After: 30 is honoured.");
    $this->assertLessThanOrEqual(time() + 30, $items[1]->nextTry, 'The first retry comes within 30 s.');
    $this->assertLessThanOrEqual(time() + 30, $items[3]->nextTry, 'The first retry comes within 30 s.');
    $this->assertStringContainsString('HTTP 503', $items[0]->lastError);
    $this->assertStringContainsString('HTTP 429', $items[1]->lastError);
    $this->assertStringContainsString('timed out', $items[2]->lastError);
    $this->assertStringContainsString('network failure', $items[3]->lastError);
    $this->assertSame([], $this->mine(["$m-503", "$m-429", "$m-down"]), 'Nothing of them reached the instance yet.');
    $this->assertStringContainsString('waits in the outbox', $this->sitebeamLog());

    // The instance is back.
    $this->config('sitebeam.settings')->set('base_url', $this->stubUrl())->save();
    $this->stub('DELETE', '/__stub/faults');
    $earlier = count($this->stubEmails());
    $this->timePasses();
    $this->container->get('cron')->run();

    $this->assertSame([], $this->outbox()->all(), 'A delivered mail leaves the outbox at once.');
    $sent_by_cron = array_slice($this->stubEmails(), $earlier);
    $this->assertSame(["$m-503", "$m-429", "$m-slow", "$m-down"], array_column($sent_by_cron, 'subject'), 'Oldest first, each once.');
    $this->assertSame(['ann@example.com', 'bob@example.com', 'cid@example.com', 'dee@example.com'], array_column($sent_by_cron, 'to'));
    $all = array_count_values(array_column($this->stubEmails(), 'subject'));
    $this->assertSame(1, $all["$m-503"]);
    $this->assertSame(1, $all["$m-429"]);
    $this->assertSame(1, $all["$m-down"]);
    $this->assertContains($all["$m-slow"], [1, 2], 'After a time-out: at least once (the instance may have sent it).');
    $this->assertSame(['data.csv' => $attachments[0]['filecontent'], 'photo.bin' => $attachments[1]['filecontent']], $this->zipFiles($sent_by_cron[0]['attachment']['b64']));
    $this->assertStringContainsString('delivered from the outbox at try 2', $this->sitebeamLog());
  }

  /**
   * Tests that a refusal for good (422) fails at once and is never queued.
   *
   * The 422 is the stub's own (from_name over 200 characters): its fault
   * rules cannot answer 422 (the route's 422 has FastAPI's shape).
   */
  public function testRefusalForGoodFailsAtOnceAndIsNeverQueued(): void {
    $this->refuseFromName();
    $this->assertFalse($this->sendProbe('ann@example.com', $this->marker));
    $this->assertSame([], $this->outbox()->all());
    $this->assertStringContainsString('not sent by the API: HTTP 422', $this->sitebeamLog());
  }

  /**
   * Tests that a mail refused on a later try is failed and not tried again.
   */
  public function testMailRefusedOnLaterTryIsNeverRetried(): void {
    $this->failEmailSends($this->marker, 503);
    $this->refuseFromName();
    $this->assertTrue($this->sendProbe('ann@example.com', $this->marker));
    $this->stub('DELETE', '/__stub/faults');
    $this->timePasses();
    $this->container->get('sitebeam.outbox_sender')->deliverDue();
    [$item] = $this->outbox()->all();
    $this->assertSame(OutboxItem::FAILED, $item->state);
    $this->assertSame(2, $item->tries);
    $this->assertStringContainsString('HTTP 422', $item->lastError);

    $this->timePasses();
    $this->assertSame(['delivered' => 0, 'waiting' => 0, 'failed' => 0], $this->container->get('sitebeam.outbox_sender')->deliverDue());
    $this->assertSame(2, $this->outbox()->all()[0]->tries);
    $this->assertSame([], $this->mine([$this->marker]));
    $this->assertStringContainsString('refused by the API at try 2, not tried again', $this->sitebeamLog());
  }

  /**
   * Tests that a mail is given up after its lifetime and stays shown.
   */
  public function testMailIsGivenUpAfterItsLifetimeAndStaysVisible(): void {
    $this->failEmailSends($this->marker, 503);
    $this->assertTrue($this->sendProbe('ann@example.com', $this->marker));
    // 72 hours and a second later.
    $created = time() - 259201;
    $this->container->get('database')->update(Outbox::TABLE)
      ->fields(['created' => $created, 'expires' => $created + 259200, 'next_try' => 0])
      ->execute();
    $this->stub('DELETE', '/__stub/faults');
    $this->container->get('sitebeam.outbox_sender')->deliverDue();

    [$item] = $this->outbox()->all();
    $this->assertSame(OutboxItem::FAILED, $item->state);
    $this->assertStringContainsString('given up after 1 tries in 72 hours; the last error: HTTP 503', $item->lastError);
    $this->assertStringContainsString('given up', $this->sitebeamLog());
    $this->assertSame([], $this->mine([$this->marker]), 'Given up: not sent.');

    $this->assertSame('delivered', $this->container->get('sitebeam.outbox_sender')->sendNow($item->id)['outcome'], 'Send now tries a failed mail again.');
    $this->assertSame([], $this->outbox()->all());
    $this->assertCount(1, $this->mine([$this->marker]));
  }

  /**
   * Tests that beyond its cap the outbox refuses new mail with a clear error.
   */
  public function testBeyondItsCapNewMailFailsAtOnce(): void {
    $this->config('sitebeam.settings')->set('mail.outbox.max_mails', 1)->save();
    $this->failEmailSends($this->marker, 503);
    $this->assertTrue($this->sendProbe('ann@example.com', $this->marker . '-1'));
    $this->assertFalse($this->sendProbe('bob@example.com', $this->marker . '-2'));
    $this->assertCount(1, $this->outbox()->all());
    $this->assertStringContainsString('not kept for later: the outbox is full (1 of 1 mails', $this->sitebeamLog());

    $this->config('sitebeam.settings')->set('mail.outbox.max_mails', 1000)->set('mail.outbox.max_bytes', 1048576)->save();
    $big = [['filecontent' => random_bytes(1048576), 'filename' => 'big.bin']];
    $this->assertFalse($this->sendProbe('cid@example.com', $this->marker . '-3', ['attachments' => $big]));
    $this->assertStringContainsString('bytes)', $this->sitebeamLog());
  }

  /**
   * Tests that a second sender does nothing while the first holds the lock.
   *
   * Two cron processes side by side: see tests/drupal/browser/outbox.spec.ts.
   */
  public function testSecondSenderSendsNothingWhileTheFirstRuns(): void {
    $this->failEmailSends($this->marker, 503);
    $this->assertTrue($this->sendProbe('ann@example.com', $this->marker));
    $this->stub('DELETE', '/__stub/faults');
    $this->timePasses();
    // Another process's lock: its own owner id in the same semaphore table.
    $other = new PersistentDatabaseLockBackend($this->container->get('database'));
    $this->assertTrue($other->acquire(OutboxSender::LOCK));
    $this->assertNull($this->container->get('sitebeam.outbox_sender')->deliverDue());
    $this->assertSame([], $this->mine([$this->marker]));
    $other->release(OutboxSender::LOCK);

    $this->assertSame(1, $this->container->get('sitebeam.outbox_sender')->deliverDue()['delivered']);
    $this->assertCount(1, $this->mine([$this->marker]));
  }

  /**
   * Tests that uninstalling removes the outbox table.
   */
  public function testUninstallRemovesTheTable(): void {
    $this->installSchema('user', ['users_data']);
    $this->assertTrue($this->container->get('database')->schema()->tableExists(Outbox::TABLE));
    $this->container->get('module_installer')->uninstall(['sitebeam']);
    $this->assertFalse($this->container->get('database')->schema()->tableExists(Outbox::TABLE));
  }

  /**
   * Gives the site a name the instance refuses as from_name (422).
   */
  private function refuseFromName(): void {
    $this->config('system.site')->set('name', str_repeat('Long name ', 21))->save();
  }

  /**
   * A port of this machine nothing listens on.
   */
  private function closedPort(): int {
    $socket = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($socket, FALSE), ':'), 1);
    fclose($socket);
    return $port;
  }

}
