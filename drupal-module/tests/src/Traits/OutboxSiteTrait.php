<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

use Drupal\Core\DependencyInjection\ContainerBuilder;
use Drupal\Core\Lock\DatabaseLockBackend;
use Drupal\Core\Mail\MailManagerInterface;
use Drupal\sitebeam\Outbox\DeliveryState;
use Drupal\sitebeam\Outbox\Outbox;
use Symfony\Component\DependencyInjection\Reference;

/**
 * A kernel site whose mail goes through Sitebeam to the real stub.
 *
 * For a test that enables dblog and sitebeam_test: use with ServerStubTrait;
 * call setUpSiteMail() in setUp(), or for tests of the outbox
 * registerOutboxServices() in register() and setUpOutboxSite() in setUp().
 */
trait OutboxSiteTrait {

  /**
   * The module's time-out, short so that a slow fault times it out.
   */
  protected static function apiTimeout(): int {
    return 2;
  }

  /**
   * The time-out, and the site's own lock instead of KernelTestBase's.
   */
  protected function registerOutboxServices(ContainerBuilder $container): void {
    $container->setParameter('sitebeam.api_timeout', static::apiTimeout());
    // KernelTestBase's lock grants every lock: the site's own, here.
    $container->register('lock', DatabaseLockBackend::class)->addArgument(new Reference('database'));
  }

  /**
   * Sitebeam as the site's mailer, pointed at the stub; the outbox table.
   */
  protected function setUpOutboxSite(): void {
    $this->installSchema('sitebeam', [Outbox::TABLE]);
    $this->setUpSiteMail();
  }

  /**
   * Sitebeam as the site's mailer, pointed at the stub; dblog for its log.
   */
  protected function setUpSiteMail(): void {
    // KernelTestBase forces the test collector through a global override;
    // these tests drive system.mail themselves.
    unset($GLOBALS['config']['system.mail']['interface']['default']);
    $this->installConfig(['system', 'sitebeam']);
    $this->installSchema('dblog', ['watchdog']);
    $this->config('system.site')->set('mail', 'site@example.com')->set('name', 'Kernel Site')->save();
    $this->config('system.mail')->set('interface.default', 'test_mail_collector')->save();
    $this->connectToStub();
    $this->container->get('sitebeam.mailer_switch')->apply(TRUE);
  }

  /**
   * The outbox service.
   */
  protected function outbox(): Outbox {
    return $this->container->get('sitebeam.outbox');
  }

  /**
   * Every waiting mail becomes due, as time passing would make it.
   */
  protected function timePasses(): void {
    $this->container->get('database')->update(Outbox::TABLE)->fields(['next_try' => 0])->execute();
  }

  /**
   * The circuit breaker's pause ends, as 30 s passing would end it.
   */
  protected function breakerPauseEnds(): void {
    $state = $this->container->get('state');
    $state->set(DeliveryState::KEY, ['breaker_until' => 0] + (array) $state->get(DeliveryState::KEY, []));
  }

  /**
   * The stub's mails with one of these subjects, in order.
   */
  protected function mine(array $subjects): array {
    return array_values(array_filter($this->stubEmails(), static fn (array $email): bool => in_array($email['subject'], $subjects, TRUE)));
  }

  /**
   * Sends the test module's probe mail; the plugin's answer.
   */
  protected function sendProbe(string $to, string $subject, array $params = []): bool {
    $mail_manager = $this->container->get('plugin.manager.mail');
    assert($mail_manager instanceof MailManagerInterface);
    $params += ['subject' => $subject, 'body' => ['Body of ' . $subject]];
    return (bool) $mail_manager->mail('sitebeam_test', 'probe', $to, 'en', $params)['result'];
  }

}
