<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Lock\PersistentDatabaseLockBackend;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\Outbox\OutboxSender;
use Drupal\user\Entity\User;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Event\TerminateEvent;
use Symfony\Component\HttpKernel\KernelEvents;

/**
 * The outbox's delivery: no mail holds another, nothing stuck, nothing lost.
 *
 * The backlog goes when the instance is back, a hung instance costs one
 * time-out, a broken outbox never breaks the site's mail.
 *
 * Every fault matches only this test's mail, by a marker in its subject or
 * the address of its own user.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class OutboxDeliveryTest extends OutboxKernelTestBase {

  /**
   * Tests that a mail the instance keeps refusing holds no reset behind it.
   *
   * The poisoned mail gets a 503 for its own content every time; the
   * password reset behind it met one 503 during a short outage. The run
   * tries the poisoned mail, moves on, and delivers the reset.
   */
  public function testPoisonedMailHoldsNoPasswordResetBehindIt(): void {
    $m = $this->marker;
    $user = $this->createUserNamed($m);
    $this->setStubFaults([
      ['status' => 503, 'body_contains' => "$m-poison"],
      ['status' => 503, 'times' => 1, 'body_contains' => $user->getEmail()],
    ]);
    $this->assertTrue($this->sendProbe('ann@example.com', "$m-poison"));
    $this->assertNotEmpty(_user_mail_notify('password_reset', $user), 'The reset is accepted: it waits in the outbox.');
    [$poison, $reset] = $this->outbox()->all();
    $this->assertSame('user_password_reset', $reset->mailId);
    $this->timePasses();

    $this->assertSame(['delivered' => 1, 'waiting' => 1, 'failed' => 0], $this->container->get('sitebeam.outbox_sender')->deliverDue());

    $delivered = array_values(array_filter($this->stubEmails(), static fn (array $mail): bool => $mail['to'] === $user->getEmail()));
    $this->assertCount(1, $delivered);
    $this->assertStringContainsString('/user/reset/', $delivered[0]['content']);
    $this->assertSame([], $this->mine(["$m-poison"]));
    $waiting = $this->outbox()->get($poison->id);
    $this->assertSame(OutboxItem::WAITING, $waiting->state);
    $this->assertSame(2, $waiting->tries);
    $this->assertSame([503, 503], array_column($waiting->history, 'status'));
  }

  /**
   * Tests that a run stops only after three failures of one kind in a row.
   *
   * 503, 503, 500 (another kind), delivered, then 503 three times: the run
   * stops there, the instance being down, and leaves the last mail untried.
   */
  public function testRunStopsOnlyAfterThreeFailuresOfOneKindInRow(): void {
    $m = $this->marker;
    $plan = ['a' => 503, 'b' => 503, 'c' => 500, 'd' => NULL, 'e' => 503, 'f' => 503, 'g' => 503, 'h' => NULL];
    $faults = [];
    foreach ($plan as $name => $status) {
      // The mails that go through later meet one 503 first, to be kept.
      $faults[] = ['status' => $status ?? 503, 'body_contains' => "$m-$name"] + ($status === NULL ? ['times' => 1] : []);
    }
    $this->setStubFaults($faults);
    foreach (array_keys($plan) as $name) {
      $this->assertTrue($this->sendProbe("$name@example.com", "$m-$name"));
    }
    $this->timePasses();

    $this->assertSame(['delivered' => 1, 'waiting' => 6, 'failed' => 0], $this->container->get('sitebeam.outbox_sender')->deliverDue());
    $this->assertSame(["$m-d"], array_column($this->mine(["$m-d", "$m-h"]), 'subject'));
    $tries = [];
    foreach ($this->outbox()->all() as $item) {
      $tries[$item->subject] = $item->tries;
    }
    $this->assertSame(["$m-a" => 2, "$m-b" => 2, "$m-c" => 2, "$m-e" => 2, "$m-f" => 2, "$m-g" => 2, "$m-h" => 1], $tries);
  }

  /**
   * Tests that the first mail through after an outage starts the drain.
   *
   * The backlog waits an hour (its backoff grew during the outage); a new
   * mail goes through; after the response, the whole backlog goes.
   */
  public function testFirstMailThroughAfterAnOutageDrainsTheBacklogAfterTheResponse(): void {
    $this->backlogAfterLongOutage(3);
    $this->assertTrue($this->sendProbe('new@example.com', $this->marker . '-new'));
    $this->assertCount(1, $this->mine([$this->marker . '-new']), 'New mail is tried at once, whatever waits.');
    $this->assertCount(3, $this->outbox()->all(), 'Nothing more before the response is sent.');

    $this->terminateRequest();

    $this->assertSame([], $this->outbox()->all());
    $this->assertCount(3, $this->mine(["{$this->marker}-1", "{$this->marker}-2", "{$this->marker}-3"]));
    $this->assertNull($this->container->get('sitebeam.delivery_state')->get()['failing_since']);
  }

  /**
   * Tests that cron alone finds the instance back and drains the backlog.
   *
   * Nothing is due for an hour; the run tries the mail due soonest ahead of
   * its time, it goes through, and the rest follows in the same run.
   */
  public function testCronFindsTheInstanceBackAndDrainsTheBacklog(): void {
    $this->backlogAfterLongOutage(3);
    $this->container->get('cron')->run();
    $this->assertSame([], $this->outbox()->all());
    $subjects = ["{$this->marker}-1", "{$this->marker}-2", "{$this->marker}-3"];
    $this->assertSame($subjects, array_column($this->mine($subjects), 'subject'));
  }

  /**
   * Tests that a hung instance costs one time-out, not one per mail.
   *
   * After a time-out, new mail goes straight to the outbox for a while (the
   * circuit breaker), with no request; the contact form's messages too. A
   * success (here the owner's Send now) closes the breaker.
   */
  public function testHungInstanceCostsOneTimeOut(): void {
    $m = $this->marker;
    $this->setStubFaults([['delay_ms' => (static::apiTimeout() + 1) * 1000, 'times' => 1, 'body_contains' => "$m-slow"]]);
    $this->assertTrue($this->sendProbe('ann@example.com', "$m-slow"));
    $this->assertTrue($this->container->get('sitebeam.delivery_state')->breakerOpen());

    $started = microtime(TRUE);
    $this->assertTrue($this->sendProbe('bob@example.com', "$m-held"));
    $this->assertLessThan(1.0, microtime(TRUE) - $started, 'No time-out waited for.');
    $held = $this->outbox()->all()[1];
    $this->assertSame("$m-held", $held->subject);
    $this->assertSame(0, $held->tries);
    $this->assertStringContainsString('not tried: the instance did not answer a moment ago (network failure: timed out', $held->lastError);
    $this->assertLessThanOrEqual(time() + 30, $held->nextTry);
    $this->assertSame([], $this->mine(["$m-held"]));

    $this->assertSame('delivered', $this->container->get('sitebeam.outbox_sender')->sendNow($held->id)['outcome']);
    $this->assertFalse($this->container->get('sitebeam.delivery_state')->breakerOpen());
    $this->assertTrue($this->sendProbe('cid@example.com', "$m-direct"));
    $this->assertCount(1, $this->mine(["$m-direct"]), 'A success closed the breaker.');
  }

  /**
   * Tests Send now on a later row, while a run holds the outbox's lock.
   */
  public function testSendNowOnLaterRow(): void {
    $m = $this->marker;
    $this->setStubFaults([
      ['status' => 503, 'body_contains' => "$m-first"],
      ['status' => 503, 'times' => 1, 'body_contains' => "$m-later"],
    ]);
    $this->assertTrue($this->sendProbe('ann@example.com', "$m-first"));
    $this->assertTrue($this->sendProbe('bob@example.com', "$m-later"));
    [$first, $later] = $this->outbox()->all();
    // Another process's run: its own owner id in the same semaphore table.
    $other = new PersistentDatabaseLockBackend($this->container->get('database'));
    $this->assertTrue($other->acquire(OutboxSender::LOCK));

    $sender = $this->container->get('sitebeam.outbox_sender');
    $this->assertSame(['outcome' => 'delivered', 'detail' => 'Delivered.'], $sender->sendNow($later->id));
    $this->assertCount(1, $this->mine(["$m-later"]));
    $this->assertSame([$first->id], array_map(static fn (OutboxItem $item): int => $item->id, $this->outbox()->all()));
    $this->assertSame('gone', $sender->sendNow($later->id)['outcome']);
    $other->release(OutboxSender::LOCK);

    // Refused for good on a later try: sent again only when confirmed.
    $this->container->get('database')->update(Outbox::TABLE)
      ->fields(['state' => OutboxItem::FAILED, 'failure' => OutboxItem::FAILURE_REFUSED])
      ->execute();
    $this->assertSame('needs_confirmation', $sender->sendNow($first->id)['outcome']);
    $this->assertSame(1, $this->outbox()->get($first->id)->tries, 'Nothing was sent.');
    $again = $sender->sendNow($first->id, TRUE);
    $this->assertSame('waiting', $again['outcome']);
    $this->assertStringContainsString('HTTP 503', $again['detail']);
    $this->assertSame(OutboxItem::WAITING, $this->outbox()->get($first->id)->state);
  }

  /**
   * Tests that a missing table never breaks mail nor cron.
   *
   * Before update.php: a password reset during an outage is reported not
   * sent (and logged), never an exception; cron goes on; the status report
   * shows an error.
   */
  public function testMissingTableNeverBreaksMailNorCron(): void {
    $user = $this->createUserNamed($this->marker);
    $this->container->get('database')->schema()->dropTable(Outbox::TABLE);
    $this->failEmailSends($user->getEmail(), 503);

    $this->assertEmpty(_user_mail_notify('password_reset', $user));
    $this->assertStringContainsString('not kept for later', $this->sitebeamLog());
    $this->container->get('cron')->run();
    $this->terminateRequest();

    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    $requirement = sitebeam_requirements('runtime')['sitebeam_outbox'] ?? NULL;
    $this->assertSame(REQUIREMENT_ERROR, $requirement['severity'] ?? NULL);
    $this->assertStringContainsString('Run the database updates', (string) $requirement['description']);
  }

  /**
   * Tests that waiting mail outlasts settings that send nothing.
   *
   * The instance address removed, or refused as private: nothing can be
   * sent, and nothing is refused for good either. The mail waits, no try
   * counted, and goes once the settings are back.
   */
  public function testWaitingMailOutlastsSettingsThatSendNothing(): void {
    $this->failEmailSends($this->marker, 503);
    $this->assertTrue($this->sendProbe('ann@example.com', $this->marker));
    $this->stub('DELETE', '/__stub/faults');
    $this->timePasses();
    $this->setSetting('sitebeam_allow_private_hosts', FALSE);

    $this->assertSame(['delivered' => 0, 'waiting' => 1, 'failed' => 0], $this->container->get('sitebeam.outbox_sender')->deliverDue());
    [$item] = $this->outbox()->all();
    $this->assertSame([OutboxItem::WAITING, 1], [$item->state, $item->tries]);
    $this->assertStringContainsString('not sent: the instance address is private', $item->lastError);

    $this->setSetting('sitebeam_allow_private_hosts', TRUE);
    $this->timePasses();
    $this->assertSame(1, $this->container->get('sitebeam.outbox_sender')->deliverDue()['delivered']);
    $this->assertCount(1, $this->mine([$this->marker]));
  }

  /**
   * Tests that a row that cannot be read is failed, not claimed forever.
   */
  public function testUnreadableRowIsFailedNotClaimedForever(): void {
    $this->failEmailSends($this->marker, 503);
    $this->assertTrue($this->sendProbe('ann@example.com', $this->marker));
    $this->container->get('database')->update(Outbox::TABLE)->fields(['payload' => '{"to": broken', 'next_try' => 0])->execute();
    $this->assertSame(['delivered' => 0, 'waiting' => 0, 'failed' => 1], $this->container->get('sitebeam.outbox_sender')->deliverDue());
    [$item] = $this->outbox()->all();
    $this->assertSame(OutboxItem::FAILED, $item->state);
    $this->assertSame(OutboxItem::FAILURE_REFUSED, $item->failure);
    $this->assertStringContainsString('cannot be read', $item->lastError);
  }

  /**
   * Tests the bulk operations and cron's purge of old failed mail.
   */
  public function testBulkOperationsAndRetention(): void {
    $m = $this->marker;
    $this->failEmailSends($m, 503);
    foreach (['a', 'b', 'c', 'd'] as $name) {
      $this->assertTrue($this->sendProbe("$name@example.com", "$m-$name"));
    }
    [$a, $b, $c, $d] = $this->outbox()->all();
    $database = $this->container->get('database');
    $day = 86400;
    // a: refused 31 days ago; b: given up 29 days ago; c: given up 31 days ago.
    $fail = static fn (int $id, array $fields) => $database->update(Outbox::TABLE)
      ->fields(['state' => 'failed'] + $fields)
      ->condition('id', $id)
      ->execute();
    $fail($a->id, ['failure' => 'refused', 'last_try' => time() - 31 * $day]);
    $fail($b->id, ['failure' => 'expired', 'expires' => time() - 29 * $day]);
    $fail($c->id, ['failure' => 'expired', 'expires' => time() - 31 * $day]);

    // The instance is still down: d stays waiting.
    $this->container->get('cron')->run();
    $this->assertSame([$b->id, $d->id], array_map(static fn (OutboxItem $item): int => $item->id, $this->outbox()->all()), 'Failed mail goes after 30 days; waiting mail stays.');
    $this->assertStringContainsString('2 failed mails older than 30 days deleted', $this->sitebeamLog());

    $this->assertSame(1, $this->outbox()->makeAllDue());
    $this->assertLessThanOrEqual(time(), $this->outbox()->get($d->id)->nextTry);
    $this->assertSame(1, $this->outbox()->deleteAll(OutboxItem::FAILED));
    $this->assertSame(0, $this->outbox()->deleteAll(NULL, OutboxItem::KIND_CONTACT));
    $this->assertSame(1, $this->outbox()->deleteMany([$d->id, 999999]));
    $this->assertSame([], $this->outbox()->all());
  }

  /**
   * Tests update 10009: the new columns, the settings, a private instance.
   *
   * A site whose saved instance address is private, without the
   * settings.php switch, is told so by the update and the status report,
   * with the fix.
   */
  public function testUpdateAddsTheColumnsAndReportsPrivateInstance(): void {
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    $schema = $this->container->get('database')->schema();
    $before = sitebeam_schema()[Outbox::TABLE];
    $before['fields'] = array_diff_key($before['fields'], sitebeam_outbox_fields_10009());
    unset($before['indexes']['visitor']);
    $schema->dropTable(Outbox::TABLE);
    $schema->createTable(Outbox::TABLE, $before);
    $this->container->get('database')->insert(Outbox::TABLE)
      ->fields(['recipient' => 'ann@example.com', 'payload' => '{}', 'state' => 'waiting'])
      ->execute();
    $settings = $this->config('sitebeam.settings');
    $settings->set('mail.outbox', ['lifetime' => 259200, 'max_mails' => 1000, 'max_bytes' => 52428800])->save();
    $this->setSetting('sitebeam_allow_private_hosts', FALSE);
    $settings->set('base_url', 'https://192.168.1.20')->save();

    $message = (string) sitebeam_update_10009();

    [$item] = $this->outbox()->all();
    $this->assertSame([OutboxItem::KIND_SITE, '', 0, []], [$item->kind, $item->failure, $item->lastTry, $item->history]);
    $this->assertTrue($schema->indexExists(Outbox::TABLE, 'visitor'));
    $this->assertSame(50, $this->config('sitebeam.settings')->get('mail.outbox.contact_share'));
    $this->assertSame(30, $this->config('sitebeam.settings')->get('mail.outbox.retention_days'));
    $this->assertStringContainsString('https://192.168.1.20 is a private', $message);
    $this->assertStringContainsString("\$settings['sitebeam_allow_private_hosts'] = TRUE;", $message);
    $requirement = sitebeam_requirements('runtime')['sitebeam_private_instance'] ?? [];
    $this->assertSame(REQUIREMENT_ERROR, $requirement['severity'] ?? NULL);
    $this->assertStringContainsString('sitebeam_allow_private_hosts', (string) $requirement['description']);

    $this->setSetting('sitebeam_allow_private_hosts', TRUE);
    $this->assertArrayNotHasKey('sitebeam_private_instance', sitebeam_requirements('runtime'));
    $this->assertStringNotContainsString('private', (string) sitebeam_update_10009());
  }

  /**
   * An active user with its own address, unique to this test.
   */
  private function createUserNamed(string $name): User {
    $this->installEntitySchema('user');
    $this->installConfig(['user']);
    // The reset link's route.
    $this->container->get('router.builder')->rebuild();
    $user = User::create(['name' => $name, 'mail' => "$name@example.com", 'status' => 1]);
    $user->save();
    return $user;
  }

  /**
   * Three mails waiting an hour after an outage; the instance is back.
   *
   * The outage as the site saw it: three 503 in a row.
   */
  private function backlogAfterLongOutage(int $mails): void {
    $this->failEmailSends($this->marker, 503);
    for ($i = 1; $i <= $mails; $i++) {
      $this->assertTrue($this->sendProbe("to$i@example.com", "{$this->marker}-$i"));
    }
    $this->assertTrue($this->container->get('sitebeam.delivery_state')->isDown());
    $this->container->get('database')->update(Outbox::TABLE)->fields(['tries' => 8, 'next_try' => time() + 3600])->execute();
    $this->stub('DELETE', '/__stub/faults');
  }

  /**
   * Ends a request as the kernel does after sending its response.
   */
  private function terminateRequest(): void {
    $kernel = $this->container->get('http_kernel');
    $this->container->get('event_dispatcher')->dispatch(new TerminateEvent($kernel, Request::create('/'), new Response()), KernelEvents::TERMINATE);
  }

}
