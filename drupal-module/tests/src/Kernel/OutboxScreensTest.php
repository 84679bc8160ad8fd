<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\DependencyInjection\ContainerBuilder;
use Drupal\Core\Form\FormState;
use Drupal\Core\Lock\DatabaseLockBackend;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Form\OutboxBulkForm;
use Drupal\sitebeam\Form\OutboxDeleteForm;
use Drupal\sitebeam\Form\OutboxSendAgainForm;
use Drupal\sitebeam\Mail\AttachmentPacker;
use Drupal\sitebeam\Outbox\DeliveryState;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\Tests\sitebeam\Traits\HttpKernelTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use Drupal\Tests\sitebeam\Traits\SitebeamLogTrait;
use Drupal\Tests\user\Traits\UserCreationTrait;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\DependencyInjection\Reference;
use Symfony\Component\HttpFoundation\Request;

/**
 * The owner's outbox screens: the list, one mail, the actions, the status.
 *
 * Rows are written straight into the table, as the engine writes them; the
 * last send's outcome is written where the engine's DeliveryState keeps it
 * (the state API). Each test method installs Drupal afresh: few, thorough.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class OutboxScreensTest extends KernelTestBase {

  use HttpKernelTrait;
  use ServerStubTrait;
  use SitebeamLogTrait;
  use UserCreationTrait;

  private const OUTBOX = '/admin/reports/sitebeam-outbox';

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'dblog', 'sitebeam', 'sitebeam_test'];

  /**
   * {@inheritdoc}
   */
  public function register(ContainerBuilder $container): void {
    parent::register($container);
    // KernelTestBase's lock grants every lock: the site's own, here.
    $container->register('lock', DatabaseLockBackend::class)->addArgument(new Reference('database'));
  }

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('dblog', ['watchdog']);
    $this->installSchema('sitebeam', [Outbox::TABLE]);
    $this->config('system.date')->set('timezone.default', 'Europe/Paris')->save();
    $this->connectToStub();
    $this->container->get('router.builder')->rebuild();
    $this->setUpCurrentUser(['name' => 'owner'], ['manage sitebeam outbox']);
  }

  /**
   * Tests the list: a pager, "1–20 of 120", sorting, the state filter.
   */
  public function testTheListPagesSortsAndFilters(): void {
    $now = time();
    $rows = [];
    for ($i = 0; $i < 120; $i++) {
      $failed = $i >= 100;
      $rows[] = [
        'recipient' => sprintf('r%03d@example.com', ($i * 37) % 120),
        'subject' => "Mail $i",
        'created' => $now - 7200 + $i * 10,
        'state' => $failed ? 'failed' : 'waiting',
        'failure' => $failed ? ($i % 2 ? 'refused' : 'expired') : '',
        'kind' => $i % 40 === 0 ? 'contact' : 'site',
      ];
    }
    $this->addMails($rows);

    $first = $this->page(self::OUTBOX);
    $this->assertStringContainsString('1–20 of 120', $first);
    $this->assertStringContainsString('All (120)', $first);
    $this->assertStringContainsString('Waiting (100)', $first);
    $this->assertStringContainsString('Not delivered (20)', $first);
    $this->assertSame(array_map(static fn (int $i): string => "Mail $i", range(0, 19)), $this->subjects($first), 'Oldest first, 20 a page.');
    $this->assertStringContainsString('?page=1', $first);
    $this->assertStringContainsString('priority-medium', $first);
    $this->assertStringContainsString('priority-low', $first);

    $third = $this->page(self::OUTBOX . '?page=2');
    $this->assertStringContainsString('41–60 of 120', $third);
    $this->assertSame(array_map(static fn (int $i): string => "Mail $i", range(40, 59)), $this->subjects($third));
    $this->assertStringContainsString('101–120 of 120', $this->page(self::OUTBOX . '?page=5'));

    $newest = $this->subjects($this->page(self::OUTBOX . '?order=Queued&sort=desc'));
    $this->assertSame('Mail 119', $newest[0]);
    $by_recipient = $this->page(self::OUTBOX . '?order=Recipient&sort=asc');
    preg_match_all('/r(\d{3})@example\.com/', $by_recipient, $recipients);
    $this->assertSame(range(0, 19), array_map('intval', $recipients[1]));

    $failed = $this->page(self::OUTBOX . '?state=failed');
    $this->assertStringContainsString('1–20 of 20', $failed);
    $this->assertSame(array_map(static fn (int $i): string => "Mail $i", range(100, 119)), $this->subjects($failed));
    $this->assertStringContainsString('aria-current="page"', $failed);
    $this->assertSame(10, substr_count($failed, '>Refused<'));
    $this->assertSame(10, substr_count($failed, '>Given up<'));
    $waiting_last = $this->subjects($this->page(self::OUTBOX . '?state=waiting&page=4'));
    $this->assertSame(array_map(static fn (int $i): string => "Mail $i", range(80, 99)), $waiting_last);
    $this->assertCount(20, $this->subjects($this->page(self::OUTBOX . '?state=whatever')), 'An unknown state lists every mail.');

    $this->assertStringContainsString('Retry all', $first);
    $this->assertStringContainsString('Delete all not delivered', $first);
    $this->assertStringContainsString('Delete all contact messages', $first);
  }

  /**
   * Tests each row's words: age, next try, marks, error, operations, escaping.
   */
  public function testRowsSayWhatHappensInWordsAndTheSiteTimeZone(): void {
    $now = time();
    $overdue = $this->addMail([
      'subject' => 'Overdue one',
      'created' => $now - 7300,
      'next_try' => $now - 600,
      'last_error' => 'HTTP 503 model_loading: The model is loading',
    ]);
    $later = $this->addMail([
      'subject' => 'Later one',
      'next_try' => $now + 245,
      'attachment' => 'report.pdf',
      'kind' => 'contact',
    ]);
    $refused = $this->addMail([
      'subject' => 'Refused one',
      'state' => 'failed',
      'failure' => 'refused',
      'last_error' => 'HTTP 422: to: value is not a valid email address',
    ]);
    $given_up = $this->addMail([
      'subject' => 'Given-up one',
      'state' => 'failed',
      'failure' => 'expired',
      'last_error' => 'network failure: cURL error 28: Operation timed out after 20001 milliseconds',
    ]);
    $this->addMail([
      'subject' => '<script>alert("subject")</script>',
      'recipient' => '"><img src=x onerror=alert(1)>@example.com',
      'last_error' => '<b>boom</b> of a new kind',
    ]);

    $html = $this->page(self::OUTBOX);
    $overdue_row = $this->row($html, $overdue);
    $this->assertStringContainsString('2 hours ago', $overdue_row);
    $this->assertStringContainsString('Overdue: at the next cron run', $overdue_row);
    $this->assertStringContainsString('the instance is busy (HTTP 503)', $overdue_row);
    $this->assertStringNotContainsString('model_loading', $overdue_row);
    // The time in the site's zone for machines and on hover, never UTC.
    $paris = (new \DateTime('@' . ($now - 7300)))->setTimezone(new \DateTimeZone('Europe/Paris'));
    $this->assertStringContainsString('datetime="' . $paris->format(\DateTimeInterface::ATOM) . '"', $overdue_row);
    $this->assertStringContainsString($paris->format('H:i'), $overdue_row);
    $this->assertStringNotContainsString('UTC', $html);
    $this->assertStringContainsString('Send now', $overdue_row);
    $this->assertStringContainsString(self::OUTBOX . "/$overdue/send?token=", $overdue_row);

    $later_row = $this->row($html, $later);
    $this->assertStringContainsString('>in 4 minutes<', $later_row);
    $this->assertStringContainsString('With an attachment: report.pdf', $later_row);
    $this->assertStringContainsString('Contact form', $later_row);

    $refused_row = $this->row($html, $refused);
    $this->assertStringContainsString('>Refused<', $refused_row);
    $this->assertStringContainsString('the instance refused the mail (HTTP 422): to: value is not a valid email address', $refused_row);
    $this->assertStringNotContainsString('/send?token=', $refused_row, 'No Send now on a mail refused for good.');
    $this->assertStringContainsString(self::OUTBOX . "/$refused/send-again", $refused_row);
    $this->assertLessThan(strpos($refused_row, 'Send again…'), strpos($refused_row, 'Delete'), 'Delete comes first.');
    $this->assertStringContainsString('Not tried again', $refused_row);

    $given_up_row = $this->row($html, $given_up);
    $this->assertStringContainsString('>Given up<', $given_up_row);
    $this->assertStringContainsString('the instance did not answer in time', $given_up_row);
    $this->assertStringContainsString(self::OUTBOX . "/$given_up/send?token=", $given_up_row);
    $this->assertStringContainsString('Send again', $given_up_row);

    $this->assertStringNotContainsString('<script>alert("subject")', $html);
    $this->assertStringContainsString('&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;', $html);
    $this->assertStringNotContainsString('<img src=x', $html);
    $this->assertStringNotContainsString('<b>boom</b>', $html);
  }

  /**
   * Tests that every screen and action needs the outbox permission.
   */
  public function testEveryScreenNeedsTheOutboxPermission(): void {
    $id = $this->addMail(['state' => 'failed', 'failure' => 'refused']);
    $paths = [
      self::OUTBOX,
      self::OUTBOX . "/$id",
      self::OUTBOX . "/$id/delete",
      self::OUTBOX . "/$id/send-again",
      self::OUTBOX . '/all/delete-failed',
      self::OUTBOX . '/all/retry',
    ];
    foreach ($paths as $path) {
      $this->assertSame(200, $this->handle(Request::create($path))->getStatusCode(), $path);
    }
    // Links that act at once need their CSRF token.
    foreach (["/$id/send", '/try-now', '/test-connection'] as $path) {
      $this->assertSame(403, $this->handle(Request::create(self::OUTBOX . $path))->getStatusCode(), $path);
    }
    $this->assertSame(404, $this->handle(Request::create(self::OUTBOX . '/999999'))->getStatusCode());
    $this->assertSame(404, $this->handle(Request::create(self::OUTBOX . '/999999/delete'))->getStatusCode());
    $this->assertSame(404, $this->handle(Request::create(self::OUTBOX . '/all/delete-everything'))->getStatusCode());

    $this->setUpCurrentUser(['name' => 'editor'], ['administer sitebeam', 'access site reports']);
    $send = self::OUTBOX . "/$id/send";
    $token = $this->container->get('csrf_token')->get(ltrim($send, '/'));
    foreach ([...$paths, "$send?token=$token"] as $path) {
      $this->assertSame(403, $this->handle(Request::create($path))->getStatusCode(), $path);
    }
    $this->assertCount(1, $this->container->get('sitebeam.outbox_listing')->page(NULL, []));
  }

  /**
   * Tests Delete and the bulk actions: each asks first, deletions logged.
   */
  public function testDeleteAndBulkActionsAskFirstAndDeletionsAreLogged(): void {
    $waiting = $this->addMail(['subject' => 'Keep me', 'next_try' => time() + 3000]);
    $doomed = $this->addMail(['subject' => 'Delete me', 'recipient' => 'bob@example.com']);
    $this->addMail(['subject' => 'Refused', 'state' => 'failed', 'failure' => 'refused']);
    $this->addMail(['subject' => 'Given up', 'state' => 'failed', 'failure' => 'expired']);
    $contact = $this->addMail(['subject' => 'From a visitor', 'kind' => 'contact', 'next_try' => time() + 3000]);

    $question = $this->page(self::OUTBOX . "/$doomed/delete");
    $this->assertStringContainsString('Delete the mail to <em class="placeholder">bob@example.com</em> (<em class="placeholder">Delete me</em>)?', $question);
    $this->assertStringContainsString('It will never be sent.', $question);
    $this->assertNotNull($this->container->get('sitebeam.outbox')->get($doomed), 'Asking deletes nothing.');
    $this->submitForm(OutboxDeleteForm::class, ['id' => $doomed]);
    $this->assertNull($this->container->get('sitebeam.outbox')->get($doomed));
    $this->assertStringContainsString('Mail sitebeam_test_probe to bob@example.com (Delete me) deleted from the outbox by owner, never sent.', $this->sitebeamLog());
    $this->assertStringContainsString('was deleted; it will not be sent', $this->messages());

    $this->assertStringContainsString('Delete the 2 mails that were not delivered?', $this->page(self::OUTBOX . '/all/delete-failed'));
    $this->submitForm(OutboxBulkForm::class, ['action' => OutboxBulkForm::DELETE_FAILED]);
    $this->assertSame(['Keep me', 'From a visitor'], $this->subjectsLeft());
    $this->assertStringContainsString('2 mails not delivered deleted from the outbox by owner, never sent.', $this->sitebeamLog());
    $this->assertStringContainsString('2 mails were deleted; they will not be sent.', $this->messages());
    $nothing = $this->page(self::OUTBOX . '/all/delete-failed');
    $this->assertStringContainsString('There is nothing to do', $nothing);
    $this->assertStringNotContainsString('Delete 0 mails', $nothing);

    $this->submitForm(OutboxBulkForm::class, ['action' => OutboxBulkForm::RETRY]);
    $this->assertStringContainsString('2 mails are due now', $this->messages());
    $this->assertLessThanOrEqual(time(), $this->container->get('sitebeam.outbox')->get($waiting)->nextTry);

    $this->assertStringContainsString('Delete the contact message in the outbox?', $this->page(self::OUTBOX . '/all/delete-contact'));
    $this->submitForm(OutboxBulkForm::class, ['action' => OutboxBulkForm::DELETE_CONTACT]);
    $this->assertNull($this->container->get('sitebeam.outbox')->get($contact));
    $this->assertSame(['Keep me'], $this->subjectsLeft());

    $this->container->get('database')->delete(Outbox::TABLE)->execute();
    $empty = $this->page(self::OUTBOX);
    $this->assertStringContainsString('The outbox is empty: no mail waits for the instance and none is kept as not delivered.', $empty);
    $this->assertStringNotContainsString('delivered.</td>', str_replace('not delivered.</td>', '', $empty), 'The empty list claims no delivery.');
    $this->assertStringContainsString('No mail is kept as not delivered.', $this->page(self::OUTBOX . '?state=failed'));
  }

  /**
   * Tests Send now on any row: it sends that one, or says why not.
   */
  public function testSendNowSendsThatRowOrSaysWhyNot(): void {
    $this->resetStub();
    $marker = 'screens' . bin2hex(random_bytes(4));
    $now = time();
    $first = $this->addMail(['subject' => "$marker first", 'next_try' => $now + 3000]);
    $later = $this->addMail([
      'subject' => "$marker later",
      'recipient' => 'later@example.com',
      'next_try' => $now + 3000,
    ]);
    $busy = $this->addMail(['subject' => "$marker busy", 'claimed_until' => $now + 120]);

    // A later row, while the first is not due: that row goes, and only it.
    $link = $this->linkIn($this->row($this->page(self::OUTBOX), $later), 'Send now');
    $response = $this->handle(Request::create($link));
    $this->assertSame(302, $response->getStatusCode());
    $this->assertStringEndsWith(self::OUTBOX, (string) $response->headers->get('Location'));
    $this->assertSame(["$marker later"], array_column($this->stubEmails(), 'subject'));
    $this->assertStringContainsString('The mail to <em class="placeholder">later@example.com</em> (<em class="placeholder">' . $marker . ' later</em>) was delivered.', $this->messages());
    $this->assertNull($this->container->get('sitebeam.outbox')->get($later));

    $this->setStubFaults([['status' => 503, 'body_contains' => "$marker first"]]);
    $actions = $this->container->get('sitebeam.outbox_actions');
    $actions->sendNow($first);
    $this->assertStringContainsString('was not delivered: the instance is busy (HTTP 503). It waits for its next try.', $this->messages());
    $this->assertSame('waiting', $this->container->get('sitebeam.outbox')->get($first)->state);

    $actions->sendNow($busy);
    $this->assertStringContainsString('is being sent by another run right now', $this->messages());
    $this->assertSame(["$marker later"], array_column($this->stubEmails(), 'subject'));
    $this->container->get('database')->delete(Outbox::TABLE)->condition('id', $busy)->execute();
    $actions->sendNow(999999);
    $this->assertStringContainsString('That mail is no longer in the outbox', $this->messages());

    // A mail refused for good goes again only through the confirm form,
    // which names the refusal.
    $this->stub('DELETE', '/__stub/faults');
    $refused = $this->addMail([
      'subject' => "$marker refused",
      'state' => 'failed',
      'failure' => 'refused',
      'last_error' => 'HTTP 422: to: value is not a valid email address',
    ]);
    $question = $this->page(self::OUTBOX . "/$refused/send-again");
    $this->assertStringContainsString('The instance refused this mail for good: the instance refused the mail (HTTP 422): to: value is not a valid email address.', $question);
    $this->assertCount(1, $this->stubEmails(), 'Asking sends nothing.');
    $this->submitForm(OutboxSendAgainForm::class, ['id' => $refused]);
    $this->assertSame(["$marker later", "$marker refused"], array_column($this->stubEmails(), 'subject'));

    // "Try now" sends the mail due first.
    $this->stub('DELETE', '/__stub/faults');
    $try = $this->linkIn($this->page(self::OUTBOX), 'Try now');
    $this->assertSame(302, $this->handle(Request::create($try))->getStatusCode());
    $this->assertSame("$marker first", array_column($this->stubEmails(), 'subject')[2] ?? NULL);
  }

  /**
   * Tests the single-mail page: headers, body start, attachments, tries.
   */
  public function testTheSingleMailPageShowsTheMailAndEveryTry(): void {
    $lines = array_map(static fn (int $i): string => "<p>Line $i</p>", range(1, 20));
    $lines[1] = '<p>Reset: <a href="https://site.example/user/reset/1/abc">https://site.example/user/reset/1/abc</a> <script>alert(2)</script></p>';
    $attachment = AttachmentPacker::pack([
      ['filecontent' => "a,b\n", 'filename' => 'data.csv', 'filemime' => 'text/csv'],
      ['filecontent' => 'notes', 'filename' => 'notes.txt', 'filemime' => 'text/plain'],
    ]);
    $now = time();
    $id = $this->addMail([
      'subject' => 'Your reset link',
      'recipient' => 'ann@example.com',
      'attachment' => AttachmentPacker::ZIP_FILE_NAME,
      'tries' => 2,
      'last_try' => $now - 60,
      'history' => json_encode([
        [
          'at' => $now - 600,
          'status' => 0,
          'error' => 'network failure: cURL error 7: Failed to connect to 127.0.0.1 port 9: Connection refused',
        ],
        ['at' => $now - 60, 'status' => 503, 'error' => 'HTTP 503 model_loading: The model is loading'],
      ]),
      'payload' => [
        'to' => 'ann@example.com',
        'subject' => 'Your reset link',
        'from' => 'site@example.com',
        'from_name' => 'Kernel Site',
        'replyto' => 'help@example.com',
        'content' => implode("\n", $lines),
        'attachment' => $attachment,
      ],
    ]);

    $html = $this->page(self::OUTBOX . "/$id");
    $this->assertStringContainsString('Mail to ann@example.com: Your reset link', $html);
    $this->assertStringContainsString('may hold a password-reset link', $html);
    $this->assertStringContainsString('Kernel Site &lt;site@example.com&gt;', $html);
    $this->assertStringContainsString('help@example.com', $html);
    $this->assertStringContainsString('data.csv, notes.txt', $html);
    $this->assertStringContainsString('Line 15', $html);
    $this->assertStringNotContainsString('Line 16', $html);
    $this->assertStringContainsString('… and 5 more lines', $html);
    $this->assertStringContainsString('Reset: https://site.example/user/reset/1/abc alert(2)', $html);
    $this->assertStringNotContainsString('<script>alert(2)', $html);
    $this->assertStringContainsString('the instance could not be reached (connection refused)', $html);
    $this->assertStringContainsString('the instance is busy (HTTP 503)', $html);
    $this->assertStringContainsString('HTTP 503 model_loading: The model is loading', $html, 'Each try as the instance said it too.');
    $this->assertLessThan(strpos($html, 'connection refused)'), strpos($html, 'is busy (HTTP 503)'), 'The latest try first.');
    $this->assertStringContainsString(self::OUTBOX . "/$id/send?token=", $html);
    $this->assertStringContainsString(self::OUTBOX . "/$id/delete", $html);
  }

  /**
   * Tests the status line and the status report, from the last send.
   */
  public function testTheStatusLineAndTheStatusReportFollowTheLastSend(): void {
    $status = $this->container->get('sitebeam.delivery_status');
    $report = $this->container->get('sitebeam.status_report');
    $url = $this->stubUrl();
    $this->assertNotSame('UTC', date_default_timezone_get());

    $this->assertStringContainsString('No mail has been sent through the instance yet · nothing waits', $this->renderedText($status->line($this->counts())));
    $requirements = $report->requirements();
    $this->assertSame("Set up for $url (token from config); no mail has been sent through it yet", (string) $requirements['sitebeam']['value']);
    $this->assertArrayNotHasKey('sitebeam_outbox', $requirements);

    // Ages are told from the request's time, as Drupal's date formatter does.
    $now = $this->container->get('datetime.time')->getRequestTime();
    $this->lastSends(['last_success' => $now - 180]);
    $this->assertStringContainsString('Mail is flowing: the last mail was delivered 3 minutes ago · nothing waits', $this->renderedText($status->line($this->counts())));
    $this->assertSame("Connected to $url: the last mail was delivered 3 minutes ago (token from config)", (string) $report->requirements()['sitebeam']['value']);
    $this->assertSame(REQUIREMENT_OK, $report->requirements()['sitebeam']['severity']);

    $since = time() - 60;
    $this->lastSends([
      'failing_since' => $since,
      'last_error' => 'HTTP 503 model_loading: The model is loading',
      'last_status' => 503,
      'last_success' => $now - 180,
    ]);
    $this->addMails(array_fill(0, 3, ['next_try' => time() + 245]));
    $line = $this->renderedText($status->line($this->counts()));
    $at = $this->shownTime($since);
    $this->assertStringContainsString("The instance has failed since $at (the instance is busy (HTTP 503)) · 3 mails waiting · next try in 4 minutes", $line);
    $this->assertStringContainsString('Try now', $line);
    $this->assertStringContainsString('Test connection', $line);
    $sitebeam = $report->requirements()['sitebeam'];
    $this->assertSame("Failing since $at: the instance is busy (HTTP 503)", (string) $sitebeam['value']);
    $this->assertSame(REQUIREMENT_WARNING, $sitebeam['severity']);
    $this->assertSame(REQUIREMENT_OK, $report->requirements()['sitebeam_outbox']['severity']);

    $this->container->get('database')->update(Outbox::TABLE)
      ->fields(['created' => time() - 3601, 'next_try' => time() - 5])
      ->execute();
    $this->assertStringContainsString('3 mails waiting · next try overdue: at the next cron run', $this->renderedText($status->line($this->counts())));
    $late = $report->requirements()['sitebeam_outbox'];
    $this->assertSame(REQUIREMENT_WARNING, $late['severity']);
    $this->assertStringContainsString('Mail has waited more than an hour for the Sitebeam instance: the oldest since ' . $this->shownTime(time() - 3601), (string) $late['description']);

    $failed_at = time() - 120;
    $this->addMail([
      'state' => 'failed',
      'failure' => 'refused',
      'last_try' => $failed_at,
      'last_error' => 'HTTP 422: to: value is not a valid email address',
    ]);
    $failed = $report->requirements()['sitebeam_outbox'];
    $this->assertSame(REQUIREMENT_ERROR, $failed['severity']);
    $this->assertSame('1 mail not delivered', (string) $failed['value']);
    $this->assertStringContainsString('Since ' . $this->shownTime($failed_at) . ', the instance refused mail for good, or mail was given up. The last cause: the instance refused the mail (HTTP 422): to: value is not a valid email address.', (string) $failed['description']);
    $this->assertStringContainsString(self::OUTBOX . '?state=failed', (string) $failed['description']);
    $page = $this->page(self::OUTBOX);
    $this->assertStringContainsString('1 mail was not delivered since', $page);
    $this->assertStringContainsString('aria-label="Error message"', $page);
    $this->assertStringContainsString('3 mails waiting · 1 mail not delivered', $page);

    // hook_requirements() hands the status report these lines.
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    $this->assertSame(array_keys($report->requirements()), array_keys(sitebeam_requirements('runtime')));

    $this->container->get('database')->schema()->dropTable(Outbox::TABLE);
    $missing = $report->requirements()['sitebeam_outbox'];
    $this->assertSame(REQUIREMENT_ERROR, $missing['severity']);
    $this->assertSame('The outbox table is missing', (string) $missing['value']);

    $this->config('sitebeam.settings')->set('api_token', '')->save();
    $this->assertStringContainsString('No mail can be sent: the instance address or the token is missing', $this->renderedText($status->line([
      'waiting' => 0,
      'failed' => 0,
    ])));
  }

  /**
   * Tests the last error in words, the status kept in brackets.
   */
  public function testErrorsAreToldInWords(): void {
    $words = $this->container->get('sitebeam.error_in_words');
    $cases = [
      'HTTP 503 model_loading: The model is loading' => 'the instance is busy (HTTP 503)',
      'HTTP 429 rate_limited: slow down' => 'the instance asked to slow down (HTTP 429)',
      'HTTP 500: HTTP 500' => 'the instance had an internal error (HTTP 500)',
      'HTTP 502: Bad gateway' => 'no answer from the instance behind its proxy (HTTP 502)',
      'HTTP 401 invalid_token: nope' => 'the instance refused the token (HTTP 401)',
      'HTTP 403 account_not_confirmed: confirm' => 'the account is not confirmed yet (HTTP 403)',
      'HTTP 403 not_emailapi: no' => 'the account may not send mail (HTTP 403)',
      'HTTP 405 disabled_email_service: off' => 'mail sending is switched off on the instance (HTTP 405)',
      'HTTP 413 payload_too_large: big' => 'the mail is too large for the instance (HTTP 413)',
      'HTTP 422: to: value is not a valid email address' => 'the instance refused the mail (HTTP 422): to: value is not a valid email address',
      'network failure: cURL error 28: Operation timed out after 20001 milliseconds' => 'the instance did not answer in time',
      'network failure: cURL error 7: Failed to connect to 127.0.0.1 port 9: Connection refused' => 'the instance could not be reached (connection refused)',
      'network failure: cURL error 6: Could not resolve host: api.example' => 'the instance name could not be resolved (DNS)',
      'network failure: cURL error 60: SSL certificate problem' => 'the secure connection to the instance failed (TLS)',
      'not sent: the instance address is neither https nor this machine' => 'nothing was sent: the instance address is not https',
      'given up after 4 tries in 72 hours; the last error: HTTP 503: busy' => 'given up after 4 tries in 72 hours: the instance is busy (HTTP 503)',
      'HTTP 200: an answer the contract does not allow: no status' => 'the instance answered something that is not a Sitebeam answer',
      'something new' => 'something new',
    ];
    foreach ($cases as $error => $expected) {
      $this->assertSame($expected, (string) $words->describe($error), $error);
    }
    $this->assertSame('the instance is busy (HTTP 503)', (string) $words->describe('', 503));
    $this->assertSame('the instance could not be reached', (string) $words->describe('', 0));
    // The instance's own words are a placeholder: escaped wherever printed.
    $this->assertSame('the instance refused the mail (HTTP 422): &lt;b&gt;x&lt;/b&gt;', (string) $words->describe('HTTP 422: <b>x</b>'));
  }

  /**
   * Tests that a time of today is told alone, another day's with its date.
   */
  public function testTodaysTimeIsToldAloneAnotherDaysWithItsDate(): void {
    $status = $this->container->get('sitebeam.delivery_status');
    $formatter = $this->container->get('date.formatter');
    $today_noon = strtotime('today 12:00');
    $two_days_ago = strtotime('-2 days 12:00');
    $this->assertSame('12:00', $status->when($today_noon));
    $this->assertSame($formatter->format($two_days_ago, 'short'), $status->when($two_days_ago));
    $this->assertStringContainsString(date('Y', $two_days_ago), $status->when($two_days_ago));
  }

  /**
   * How the screens tell a time: alone today, with its date another day.
   *
   * An hour ago is yesterday between midnight and one in the morning.
   */
  private function shownTime(int $timestamp): string {
    return date('Y-m-d', $timestamp) === date('Y-m-d')
      ? date('H:i', $timestamp)
      : $this->container->get('date.formatter')->format($timestamp, 'short');
  }

  /**
   * States the last sends' outcome where the engine's DeliveryState keeps it.
   */
  private function lastSends(array $state): void {
    $this->container->get('state')->set(DeliveryState::KEY, $state);
  }

  /**
   * Adds one row as the engine writes it; returns its id.
   */
  private function addMail(array $fields = []): int {
    return $this->addMails([$fields])[0];
  }

  /**
   * Adds rows as the engine writes them; returns their ids.
   *
   * @return int[]
   *   The ids, in order.
   */
  private function addMails(array $rows): array {
    $now = time();
    $ids = [];
    $transaction = $this->container->get('database')->startTransaction();
    foreach ($rows as $fields) {
      $payload = ($fields['payload'] ?? []) + [
        'to' => $fields['recipient'] ?? 'ann@example.com',
        'subject' => $fields['subject'] ?? 'Hello',
        'content' => '<p>Hello</p>',
      ];
      unset($fields['payload']);
      $json = json_encode($payload, JSON_THROW_ON_ERROR);
      $ids[] = (int) $this->container->get('database')->insert(Outbox::TABLE)->fields($fields + [
        'recipient' => 'ann@example.com',
        'subject' => 'Hello',
        'mail_id' => 'sitebeam_test_probe',
        'payload' => $json,
        'bytes' => strlen($json),
        'created' => $now,
        'next_try' => $now + 60,
        'expires' => $now + 259200,
        'tries' => 1,
        'state' => 'waiting',
        'last_error' => 'HTTP 503: busy',
        'claimed_until' => 0,
        'history' => '[]',
      ])->execute();
    }
    unset($transaction);
    return $ids;
  }

  /**
   * A page's HTML, which must answer 200.
   */
  private function page(string $path): string {
    $response = $this->handle(Request::create($path));
    $this->assertSame(200, $response->getStatusCode(), $path . ': ' . substr((string) $response->getContent(), 0, 2000));
    return (string) $response->getContent();
  }

  /**
   * The subjects of a list page, in order.
   *
   * @return string[]
   *   The subjects.
   */
  private function subjects(string $html): array {
    preg_match_all('@<tr data-sitebeam-outbox-id="\d+">\s*<td class="sitebeam-outbox__subject">\s*<a [^>]*>([^<]*)</a>@', $html, $matches);
    return $matches[1];
  }

  /**
   * The subjects still in the outbox, oldest first.
   *
   * @return string[]
   *   The subjects.
   */
  private function subjectsLeft(): array {
    return $this->container->get('database')->select(Outbox::TABLE, 'o')->fields('o', ['subject'])->orderBy('id')->execute()->fetchCol();
  }

  /**
   * One row of a list page.
   */
  private function row(string $html, int $id): string {
    $this->assertSame(1, preg_match('@<tr data-sitebeam-outbox-id="' . $id . '">.*?</tr>@s', $html, $match), "row $id is listed");
    return $match[0];
  }

  /**
   * The address of the link named $text in some HTML, entities decoded.
   */
  private function linkIn(string $html, string $text): string {
    $this->assertSame(1, preg_match('@<a href="([^"]+)"[^>]*>' . preg_quote($text, '@') . '</a>@', $html, $match), "a link \"$text\"");
    return html_entity_decode($match[1]);
  }

  /**
   * Submits a confirm form as its confirm button does.
   */
  private function submitForm(string $class, array $arguments): void {
    $form_state = (new FormState())->setValues(['confirm' => 1])->addBuildInfo('args', array_values($arguments));
    $this->container->get('form_builder')->submitForm($class, $form_state);
    $this->assertSame([], $form_state->getErrors());
  }

  /**
   * The messages shown since the last call, as one text.
   */
  private function messages(): string {
    $messages = $this->container->get('messenger')->deleteAll();
    return implode("\n", array_map('strval', array_merge(...array_values($messages ?: [[]]))));
  }

  /**
   * The outbox's counts.
   */
  private function counts(): array {
    return $this->container->get('sitebeam.outbox_listing')->counts();
  }

  /**
   * Renders a render array in isolation.
   */
  private function renderedText(array $build): string {
    return (string) $this->container->get('renderer')->renderInIsolation($build);
  }

}
