<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Mail\MailManagerInterface;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Contract;
use Drupal\Tests\sitebeam\Traits\OutboxSiteTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use Drupal\Tests\sitebeam\Traits\SitebeamLogTrait;
use Drupal\user\Entity\User;
use PHPUnit\Framework\Attributes\Group;

/**
 * The sitebeam_mail plugin, through Drupal's mail manager, to the real stub.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class MailPluginTest extends KernelTestBase {

  use ServerStubTrait;
  use SitebeamLogTrait;
  use OutboxSiteTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'dblog', 'sitebeam', 'sitebeam_test'];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->setUpSiteMail();
    $this->installSchema('user', ['users_data']);
  }

  /**
   * Tests that the switch made sitebeam the default mailer.
   */
  public function testTheSwitchMadeSitebeamTheDefaultMailer(): void {
    $this->assertSame('sitebeam_mail', $this->config('system.mail')->get('interface.default'));
    $this->assertSame('test_mail_collector', $this->config('sitebeam.settings')->get('mail.previous_interface'));
  }

  /**
   * Tests that mail with Cc, Bcc and two attachments reaches every recipient.
   */
  public function testPlainMailWithCcBccAndTwoAttachmentsReachesEveryRecipient(): void {
    $result = $this->sendProbe('ann@example.com, Bob <bob@example.com>', [
      'subject' => 'Monthly report',
      'body' => ["Hello <Ann> & Bob,\nthe report: https://example.test/r?a=1&b=2", 'Regards'],
      'headers' => ['Cc' => 'cid@example.com', 'Bcc' => 'secret@example.com'],
      'attachments' => [
        ['filecontent' => 'a,b', 'filename' => 'data.csv', 'filemime' => 'text/csv'],
        ['filecontent' => '%PDF-1.4', 'filename' => 'report.pdf', 'filemime' => 'application/pdf'],
      ],
    ]);

    $this->assertTrue($result['result']);
    $emails = $this->stubEmails();
    $this->assertSame(['ann@example.com', 'bob@example.com', 'cid@example.com', 'secret@example.com'], array_column($emails, 'to'));
    foreach ($emails as $email) {
      $this->assertSame('Monthly report', $email['subject']);
      $this->assertSame('site@example.com', $email['from']);
      $this->assertSame('Kernel Site', $email['from_name']);
      $this->assertStringContainsString('Hello &lt;Ann&gt; &amp; Bob,<br>', $email['content']);
      $this->assertStringContainsString('<a href="https://example.test/r?a=1&amp;b=2">', $email['content']);
      $this->assertSame('attachments.zip', $email['attachment']['file_name']);
      $this->assertSame(['data.csv', 'report.pdf'], array_keys($this->zipFiles($email['attachment']['b64'])));
      if ($email['to'] !== 'secret@example.com') {
        $this->assertStringNotContainsString('secret@', json_encode($email));
      }
    }
  }

  /**
   * Tests that html mail keeps its html.
   */
  public function testHtmlMailKeepsItsHtml(): void {
    $result = $this->sendProbe('ann@example.com', [
      'subject' => 'News',
      'body' => ['<h1>News</h1><p>Fresh</p>'],
      'headers' => ['Content-Type' => 'text/html; charset=UTF-8'],
    ]);
    $this->assertTrue($result['result']);
    $this->assertSame('<h1>News</h1><p>Fresh</p>', $this->stubEmails()[0]['content']);
  }

  /**
   * Tests that a refusal for good is logged and reported without fallback.
   *
   * A passing failure (503…) waits in the outbox instead: OutboxTest.
   */
  public function testApiRefusalIsLoggedAndReportedWithoutFallback(): void {
    $marker = 'refused' . bin2hex(random_bytes(5));
    $this->failEmailSends($marker, 400);
    $result = $this->sendProbe('ann@example.com', ['subject' => $marker, 'body' => ['x']]);

    $this->assertFalse($result['result']);
    $this->assertSame([], $this->stubEmails());
    $this->assertSame([], $this->container->get('state')->get('system.test_mail_collector', []));
    $log = $this->sitebeamLog();
    $this->assertStringContainsString('ann@example.com', $log);
    $this->assertStringContainsString('HTTP 400', $log);
  }

  /**
   * Tests that wrong token is logged without the token.
   */
  public function testWrongTokenIsLoggedWithoutTheToken(): void {
    $this->config('sitebeam.settings')->set('api_token', 'wrong-secret-token')->save();
    $result = $this->sendProbe('ann@example.com', ['subject' => 'Refused', 'body' => ['x']]);

    $this->assertFalse($result['result']);
    $log = $this->sitebeamLog();
    $this->assertStringContainsString('HTTP 401 auth_failed', $log);
    $this->assertStringNotContainsString('wrong-secret-token', $log);
  }

  /**
   * Tests that mail to a special-use domain is refused, the address named.
   */
  public function testMailToSpecialUseDomainIsRefusedNamingTheAddress(): void {
    $this->assertFalse($this->sendProbe('ana@shop.local', ['subject' => 'Never', 'body' => ['x']])['result']);
    $this->assertSame([], $this->stubEmails());
    $this->assertStringContainsString('The To header holds "ana@shop.local", refused by the API: .local is a special-use domain.', $this->sitebeamLog());
  }

  /**
   * Tests that email api not enabled is logged.
   */
  public function testEmailApiNotEnabledIsLogged(): void {
    $this->setStubAccountApis(['email_api' => FALSE]);
    $this->assertFalse($this->sendProbe('ann@example.com', ['subject' => 'No', 'body' => ['x']])['result']);
    $this->assertStringContainsString('HTTP 403 not_emailapi', $this->sitebeamLog());
  }

  /**
   * Tests that a refused site address leaves the sender to the account.
   */
  public function testRefusedSiteAddressLeavesPasswordResetToAccountSender(): void {
    $this->installEntitySchema('user');
    $this->installConfig(['user']);
    $this->config('system.site')->set('mail', 'drupal@localhost')->save();
    $account = User::create(['name' => 'ann', 'mail' => 'ann@example.com', 'status' => 1]);
    $account->save();

    $this->assertNotEmpty(_user_mail_notify('password_reset', $account));

    $emails = $this->stubEmails();
    $this->assertCount(1, $emails);
    $this->assertSame('ann@example.com', $emails[0]['to']);
    $this->assertSame(self::stubAccount(), $emails[0]['from'], "The stub's account sender.");
    $this->assertSame('Kernel Site', $emails[0]['from_name']);
    $this->assertStringContainsString('From header holds "drupal@localhost", refused by the API: .localhost is a special-use domain', $this->sitebeamLog());
  }

  /**
   * Tests that an attachment over 10 MiB is never dropped silently.
   */
  public function testOversizeAttachmentFailsOrGoesToTheFallback(): void {
    $params = [
      'subject' => 'Big',
      'body' => ['x'],
      'attachments' => [
        ['filecontent' => str_repeat('a', Contract::LIMIT_ATTACHMENT_BYTES + 1), 'filename' => 'big.bin'],
      ],
    ];
    $this->assertFalse($this->sendProbe('ann@example.com', $params)['result']);
    $this->assertStringContainsString('larger than the API accepts', $this->sitebeamLog());

    $this->config('sitebeam.settings')->set('mail.fallback', TRUE)->save();
    $this->assertTrue($this->sendProbe('ann@example.com', $params)['result']);
    $collected = $this->container->get('state')->get('system.test_mail_collector', []);
    $this->assertSame(['ann@example.com'], array_column($collected, 'to'));
    $this->assertSame([], $this->stubEmails());
  }

  /**
   * Tests that fallback hands each refused recipient to the previous mailer.
   */
  public function testFallbackHandsEachFailedRecipientToThePreviousMailer(): void {
    $this->config('sitebeam.settings')->set('mail.fallback', TRUE)->save();
    $marker = 'fallback' . bin2hex(random_bytes(5));
    $this->failEmailSends($marker, 400);
    $result = $this->sendProbe('ann@example.com, bob@example.com', [
      'subject' => $marker,
      'body' => ['Plain text body'],
      'headers' => ['Bcc' => 'secret@example.com'],
    ]);

    $this->assertTrue($result['result']);
    $collected = $this->container->get('state')->get('system.test_mail_collector', []);
    $this->assertSame(['ann@example.com', 'bob@example.com', 'secret@example.com'], array_column($collected, 'to'));
    foreach ($collected as $message) {
      $this->assertArrayNotHasKey('Bcc', $message['headers']);
      $this->assertStringContainsString('Plain text body', $message['body']);
      $this->assertStringNotContainsString('<p>', $message['body']);
      $this->assertStringStartsWith('text/plain', $message['headers']['Content-Type']);
    }
  }

  /**
   * Tests that switching off and uninstalling restore the previous mailer.
   */
  public function testSwitchingOffAndUninstallingRestoreThePreviousMailer(): void {
    $switch = $this->container->get('sitebeam.mailer_switch');
    $switch->apply(FALSE);
    $this->assertSame('test_mail_collector', $this->config('system.mail')->get('interface.default'));

    $switch->apply(TRUE);
    $this->container->get('module_installer')->uninstall(['sitebeam']);
    $this->assertSame('test_mail_collector', $this->config('system.mail')->get('interface.default'));
  }

  /**
   * Sends the test module's probe mail through the mail manager.
   */
  private function sendProbe(string $to, array $params): array {
    $mail_manager = $this->container->get('plugin.manager.mail');
    assert($mail_manager instanceof MailManagerInterface);
    return $mail_manager->mail('sitebeam_test', 'probe', $to, 'en', $params);
  }

}
