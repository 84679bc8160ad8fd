<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Api\InstanceHost;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\Tests\sitebeam\Traits\HttpKernelTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use Drupal\Tests\user\Traits\UserCreationTrait;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * POST /sitebeam/contact through Drupal's HTTP kernel, mail to the real stub.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class ContactEndpointTest extends KernelTestBase {

  use HttpKernelTrait;
  use ServerStubTrait;
  use UserCreationTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  private const SITE = 'http://localhost';

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('sitebeam', [Outbox::TABLE]);
    $this->config('system.site')->set('mail', 'owner@example.com')->set('name', 'Kernel Site')->save();
    $this->connectToStub();
    $this->config('sitebeam.settings')->set('contact.flood_limit', 50)->save();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests that json post sends one escaped mail to the fixed recipient.
   */
  public function testJsonPostSendsOneEscapedMailToTheFixedRecipient(): void {
    $response = $this->postJson([
      'message' => "<script>alert('x')</script>\nsecond line",
      'to' => 'attacker@example.com',
    ]);

    $this->assertSame(200, $response->getStatusCode(), (string) $response->getContent());
    $this->assertSame('ok', $this->json($response)['status']);
    $emails = $this->stubEmails();
    $this->assertCount(1, $emails);
    $this->assertSame('owner@example.com', $emails[0]['to']);
    $this->assertSame('ann@example.com', $emails[0]['replyto']);
    $this->assertSame('[Kernel Site] Hello', $emails[0]['subject']);
    $this->assertStringContainsString('&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;<br>', $emails[0]['content']);
    $this->assertStringNotContainsString('attacker@', json_encode($emails));
  }

  /**
   * Tests that configured recipient wins.
   */
  public function testConfiguredRecipientWins(): void {
    $this->config('sitebeam.settings')->set('contact.recipient', 'sales@example.com')->save();
    $this->assertSame(200, $this->postJson([])->getStatusCode());
    $this->assertSame('sales@example.com', $this->stubEmails()[0]['to']);
  }

  /**
   * Tests that form post without javascript redirects back with sent.
   */
  public function testFormPostWithoutJavascriptRedirectsBackWithSent(): void {
    $request = Request::create('/sitebeam/contact', 'POST', $this->fields([]), [], [], [
      'HTTP_ORIGIN' => self::SITE,
      'HTTP_REFERER' => self::SITE . '/contact-us?sent=1&queued=1&page=2',
      'CONTENT_TYPE' => 'application/x-www-form-urlencoded',
    ]);
    $response = $this->handle($request);
    $this->assertSame(303, $response->getStatusCode());
    $this->assertSame('/contact-us?page=2&sent=1', $response->headers->get('Location'));
    $this->assertCount(1, $this->stubEmails());
  }

  /**
   * Tests that a refused form post shows the form again, the text kept.
   */
  public function testFormPostFailureShowsTheFormAgainWithTheTextKept(): void {
    $response = $this->postForm(['email' => 'nope', 'message' => "Line <one> & \"two\"\nLine two"]);
    $this->assertSame(400, $response->getStatusCode());
    $this->assertStringStartsWith('text/html', $response->headers->get('Content-Type'));
    $this->assertStringContainsString("default-src 'none'", (string) $response->headers->get('Content-Security-Policy'));
    $html = (string) $response->getContent();
    $this->assertStringContainsString('<p role="alert">Please check the field &quot;Your email address&quot;.</p>', $html);
    $this->assertMatchesRegularExpression('/<input [^>]*name="email" [^>]*value="nope" aria-invalid="true"/', $html);
    $this->assertMatchesRegularExpression('/<input [^>]*name="name" [^>]*value="Ann" class/', $html, 'Only the refused field is marked.');
    $this->assertStringContainsString(">Line &lt;one&gt; &amp; &quot;two&quot;\nLine two</textarea>", $html);
    $this->assertMatchesRegularExpression('/<form [^>]*action="\/sitebeam\/contact" method="post"/', $html);
    $this->assertStringContainsString('href="/contact-us"', $html);
    $this->assertStringNotContainsString('http://spam', $html);
  }

  /**
   * Tests that a native post without consent comes back marked, text kept.
   *
   * A ticked box stays ticked on a page refusing another field; the mail of
   * the post that goes through says what the visitor agreed to.
   */
  public function testFormPostWithoutConsentComesBackMarkedThenSends(): void {
    $this->config('sitebeam.settings')->set('contact.consent', [
      'enabled' => TRUE,
      'label' => 'Keep my <message> & answer',
      'policy_url' => '/privacy',
    ])->save();
    $response = $this->postForm(['message' => 'Kept <words>']);
    $this->assertSame(400, $response->getStatusCode());
    $html = (string) $response->getContent();
    $this->assertStringContainsString('<p role="alert">Please tick the consent box to send your message.</p>', $html);
    $this->assertMatchesRegularExpression('/<input id="[^"]+" name="consent" type="checkbox" value="yes" required aria-invalid="true" class="form-checkbox">/', $html);
    $this->assertStringContainsString('Keep my &lt;message&gt; &amp; answer</label>', $html);
    $this->assertStringContainsString('<a href="/privacy" target="_blank" rel="noopener noreferrer">', $html);
    $this->assertStringContainsString('>Kept &lt;words&gt;</textarea>', $html);

    $html = (string) $this->postForm(['email' => 'nope', 'consent' => 'yes'])->getContent();
    $this->assertMatchesRegularExpression('/name="consent" type="checkbox" value="yes" required checked class/', $html);
    $this->assertSame([], $this->stubEmails());

    $this->assertSame(303, $this->postForm(['consent' => 'yes'])->getStatusCode());
    $this->assertStringContainsString('<p>The visitor agreed: Keep my &lt;message&gt; &amp; answer</p>', $this->stubEmails()[0]['content']);
  }

  /**
   * Tests that a form sent too fast comes back with a fresh ticket.
   *
   * The visitor sends the kept text again once that ticket is old enough.
   */
  public function testFormPostSentTooFastComesBackWithTextAndFreshTicket(): void {
    $one_second_old = $this->container->get('sitebeam.contact_ticket')->issue((int) (microtime(TRUE) * 1000) - 1000);
    $response = $this->postForm(['ticket' => $one_second_old, 'subject' => 'Quick one']);
    $this->assertSame(400, $response->getStatusCode());
    $html = (string) $response->getContent();
    $this->assertStringContainsString('Please wait a few seconds and send it again.', $html);
    $this->assertMatchesRegularExpression('/name="subject" [^>]*value="Quick one"/', $html);
    $this->assertStringContainsString('>A question about prices.</textarea>', $html);
    $this->assertSame(1, preg_match('/<input type="hidden" name="ticket" value="(\d+)\.[A-Za-z0-9_-]{43}">/', $html, $ticket));
    $this->assertEqualsWithDelta(microtime(TRUE) * 1000, (int) $ticket[1], 60000, 'Issued now, not the refused one.');
    $this->assertStringContainsString('<input type="hidden" name="back" value="/contact-us">', $html);
    $this->assertSame([], $this->stubEmails());

    // Sent again from that page, whose address is the endpoint's.
    $again = $this->postForm(['back' => '/contact-us'], self::SITE . '/sitebeam/contact');
    $this->assertSame(303, $again->getStatusCode());
    $this->assertSame('/contact-us?sent=1', $again->headers->get('Location'));
    $this->assertCount(1, $this->stubEmails());
    $elsewhere = $this->postForm(['back' => 'https://evil.example/contact-us'], self::SITE . '/sitebeam/contact');
    $this->assertSame('/?sent=1', $elsewhere->headers->get('Location'), 'Never off this site, nor to the endpoint.');
  }

  /**
   * Tests that refusals send nothing.
   *
   * @dataProvider refusals
   */
  #[DataProvider('refusals')]
  public function testRefusalsSendNothing(array $fields, array $server, int $status, string $code, ?string $field): void {
    $response = $this->postJson($fields, $server);
    $body = $this->json($response);
    $this->assertSame($status, $response->getStatusCode(), (string) $response->getContent());
    $this->assertSame('ko', $body['status']);
    $this->assertSame($code, $body['i18n_code']);
    $this->assertSame($field, $body['field'] ?? NULL);
    $this->assertSame([], $this->stubEmails());
  }

  /**
   * Data provider for testRefusalsSendNothing().
   */
  public static function refusals(): array {
    return [
      'bad email' => [['email' => 'ann@'], [], 400, 'invalid_field', 'email'],
      'header injection in subject' => [
        ['subject' => "Hi\r\nBcc: all@example.com"], [], 400, 'invalid_field', 'subject',
      ],
      'message too long' => [['message' => str_repeat('m', 10001)], [], 400, 'invalid_field', 'message'],
      'honeypot' => [['homepage' => 'http://spam.test'], [], 400, 'spam_suspected', NULL],
      'other origin' => [[], ['HTTP_ORIGIN' => 'https://evil.example'], 403, 'forbidden_origin', NULL],
      'null origin' => [[], ['HTTP_ORIGIN' => 'null'], 403, 'forbidden_origin', NULL],
      'other referer without origin' => [
        [], ['HTTP_ORIGIN' => NULL, 'HTTP_REFERER' => 'https://evil.example/page'], 403, 'forbidden_origin', NULL,
      ],
    ];
  }

  /**
   * Tests that a ticket younger than3 seconds is refused.
   */
  public function testTicketYoungerThan3SecondsIsRefused(): void {
    $tickets = $this->container->get('sitebeam.contact_ticket');
    $response = $this->postJson(['ticket' => $tickets->issue((int) (microtime(TRUE) * 1000) - 1000)]);
    $this->assertSame(400, $response->getStatusCode());
    $this->assertSame('spam_suspected', $this->json($response)['i18n_code']);
    $this->assertSame('ticket', $this->json($response)['field']);
    $this->assertSame([], $this->stubEmails());
  }

  /**
   * Tests that the block's form carries a ticket rendered for this request.
   */
  public function testTheBlockRendersFreshTicket(): void {
    $build = $this->container->get('plugin.manager.block')->createInstance('sitebeam_contact_form', [])->build();
    $html = (string) $this->container->get('renderer')->renderRoot($build);
    $this->assertMatchesRegularExpression('/<input type="hidden" name="ticket" value="\d+\.[A-Za-z0-9_-]{43}">/', $html);
    preg_match('/name="ticket" value="(\d+)\./', $html, $issued);
    $this->assertEqualsWithDelta(microtime(TRUE) * 1000, (int) $issued[1], 60000);
  }

  /**
   * The contact block as rendered on a page of this site.
   */
  private function renderBlockAt(string $path): string {
    $this->container->get('request_stack')->push(Request::create($path));
    try {
      $build = $this->container->get('plugin.manager.block')->createInstance('sitebeam_contact_form', [])->build();
      return (string) $this->container->get('renderer')->renderRoot($build);
    }
    finally {
      $this->container->get('request_stack')->pop();
    }
  }

  /**
   * Tests that get answers a fresh ticket never cached.
   */
  public function testGetAnswersFreshTicketNeverCached(): void {
    $response = $this->handle(Request::create('/sitebeam/contact', 'GET', [], [], [], ['HTTP_ORIGIN' => self::SITE]));
    $this->assertSame(200, $response->getStatusCode());
    $this->assertStringContainsString('no-store', (string) $response->headers->get('Cache-Control'));
    $this->assertSame(self::SITE, $response->headers->get('Access-Control-Allow-Origin'));
    $ticket = $this->json($response)['ticket'];
    $this->assertMatchesRegularExpression('/^\d+\.[A-Za-z0-9_-]{43}$/', $ticket);
    $this->assertFalse($this->container->get('sitebeam.contact_ticket')->isValid($ticket), 'Too fresh to post with.');
  }

  /**
   * Tests that other methods and bodies are refused.
   */
  public function testOtherMethodsAndBodiesAreRefused(): void {
    $put = $this->handle(Request::create('/sitebeam/contact', 'PUT'));
    $this->assertSame(405, $put->getStatusCode());
    $this->assertSame('method_not_allowed', $this->json($put)['i18n_code']);
    $this->assertSame('GET, POST, OPTIONS', $put->headers->get('Allow'));

    $multipart = $this->handle(Request::create('/sitebeam/contact', 'POST', $this->fields([]), [], [], ['CONTENT_TYPE' => 'multipart/form-data; boundary=x']));
    $this->assertSame(415, $multipart->getStatusCode());

    $text = $this->handle(Request::create('/sitebeam/contact', 'POST', [], [], [], ['CONTENT_TYPE' => 'text/plain'], 'hello'));
    $this->assertSame(415, $text->getStatusCode());
    $this->assertSame('unsupported_media_type', $this->json($text)['i18n_code']);

    $big = $this->postJson(['message' => str_repeat('m', 70000)]);
    $this->assertSame(413, $big->getStatusCode());
  }

  /**
   * Tests that every post counts towards the rate limit.
   */
  public function testEveryPostCountsTowardsTheRateLimit(): void {
    $this->config('sitebeam.settings')->set('contact.flood_limit', 2)->set('contact.flood_window', 600)->save();
    $this->assertSame(400, $this->postJson(['email' => 'bad'])->getStatusCode());
    $this->assertSame(200, $this->postJson([])->getStatusCode());
    $limited = $this->postJson([]);
    $this->assertSame(429, $limited->getStatusCode());
    $this->assertSame('rate_limited', $this->json($limited)['i18n_code']);
    $this->assertContains((int) $limited->headers->get('Retry-After'), range(590, 600), 'Until the oldest post leaves the window.');
    $this->assertCount(1, $this->stubEmails());
  }

  /**
   * Tests that refused credentials mean not configured and reveal nothing.
   */
  public function testRefusedCredentialsMeanNotConfiguredAndRevealNothing(): void {
    $this->config('sitebeam.settings')->set('api_token', 'wrong-secret-token')->save();
    $response = $this->postJson([]);
    $this->assertSame(503, $response->getStatusCode());
    $this->assertSame('not_configured', $this->json($response)['i18n_code']);
    foreach (['wrong-secret-token', 'owner@example.com', 'auth_failed', $this->stubUrl()] as $secret) {
      $this->assertStringNotContainsString($secret, (string) $response->getContent());
    }
  }

  /**
   * Tests that a passing failure queues the message: 202, sent on cron.
   *
   * A 500 and a 429 (with Retry-After) of the API for this test's message
   * only; the visitor is told it was received, the form without JavaScript
   * goes back with sent=1&queued=1, and cron sends each message once.
   */
  public function testPassingApiFailureQueuesTheMessageAndCronSendsIt(): void {
    $marker = 'contact' . bin2hex(random_bytes(5));
    $this->setStubFaults([
      ['status' => 500, 'body_contains' => "$marker-500"],
      ['status' => 429, 'retry_after' => 30, 'body_contains' => "$marker-429"],
    ]);
    foreach (['500', '429'] as $case) {
      $response = $this->postJson(['subject' => "$marker-$case"]);
      $this->assertSame(202, $response->getStatusCode(), (string) $response->getContent());
      $json = $this->json($response);
      $this->assertSame('ok', $json['status']);
      $this->assertTrue($json['queued']);
      $this->assertSame('Thanks, we received your message.', $json['message']);
    }
    $native = $this->handle(Request::create('/sitebeam/contact', 'POST', $this->fields(['subject' => "$marker-500"]), [], [], [
      'HTTP_ORIGIN' => self::SITE,
      'HTTP_REFERER' => self::SITE . '/contact-us',
    ]));
    $this->assertSame(303, $native->getStatusCode());
    $this->assertStringEndsWith('/contact-us?sent=1&queued=1', (string) $native->headers->get('Location'));
    $this->assertStringContainsString('Thanks, we received your message.', $this->renderBlockAt('/contact-us?sent=1&queued=1'));
    $this->assertStringNotContainsString('has been sent', $this->renderBlockAt('/contact-us?sent=1&queued=1'));
    $this->assertStringContainsString('Thank you: your message has been sent.', $this->renderBlockAt('/contact-us?sent=1'));

    $outbox = $this->container->get('sitebeam.outbox');
    $this->assertSame(["[Kernel Site] $marker-500", "[Kernel Site] $marker-429", "[Kernel Site] $marker-500"], array_map(static fn ($item): string => $item->subject, $outbox->all()));
    $this->assertSame([], $this->stubEmails());

    $this->stub('DELETE', '/__stub/faults');
    $this->container->get('database')->update(Outbox::TABLE)->fields(['next_try' => 0])->execute();
    $this->container->get('sitebeam.outbox_sender')->deliverDue();
    $this->assertSame(["[Kernel Site] $marker-500", "[Kernel Site] $marker-429", "[Kernel Site] $marker-500"], array_column($this->stubEmails(), 'subject'));
    $this->assertSame('ann@example.com', $this->stubEmails()[0]['replyto']);
    $this->assertSame([], $outbox->all());
  }

  /**
   * Tests that a refusal for good is upstream failed, never queued.
   */
  public function testApiRefusalIsUpstreamFailed(): void {
    $marker = 'contact' . bin2hex(random_bytes(5));
    $this->failEmailSends($marker, 400);
    $response = $this->postJson(['subject' => $marker]);
    $this->assertSame(502, $response->getStatusCode());
    $this->assertSame('upstream_failed', $this->json($response)['i18n_code']);
    $this->assertSame([], $this->container->get('sitebeam.outbox')->all());
  }

  /**
   * Tests that a full outbox makes a passing failure upstream failed.
   */
  public function testFullOutboxMakesPassingFailureUpstreamFailed(): void {
    $marker = 'contact' . bin2hex(random_bytes(5));
    // Contact messages may fill half of it: one.
    $this->config('sitebeam.settings')->set('mail.outbox.max_mails', 2)->save();
    $this->failEmailSends($marker, 503);
    $this->assertSame(202, $this->postJson(['subject' => $marker])->getStatusCode());
    $response = $this->postJson(['subject' => $marker]);
    $this->assertSame(502, $response->getStatusCode());
    $this->assertSame('upstream_failed', $this->json($response)['i18n_code']);
  }

  /**
   * Tests that a contact flood during an outage leaves room for site mail.
   *
   * Contact messages fill their half of the outbox; beyond it a visitor is
   * asked to try again (never told it will be sent); the site's own mail
   * still has the other half.
   */
  public function testContactFloodDuringAnOutageLeavesRoomForTheSiteMail(): void {
    $marker = 'contact' . bin2hex(random_bytes(5));
    $this->enableModules(['sitebeam_test']);
    unset($GLOBALS['config']['system.mail']['interface']['default']);
    $this->config('system.mail')->set('interface.default', 'test_mail_collector')->save();
    $this->container->get('sitebeam.mailer_switch')->apply(TRUE);
    $this->config('sitebeam.settings')->set('mail.outbox.max_mails', 4)->save();
    $this->failEmailSends($marker, 503);

    $answers = [];
    foreach ([1, 2, 3] as $i) {
      $answers[] = $this->postJson(['subject' => "$marker $i"])->getStatusCode();
    }
    $this->assertSame([202, 202, 502], $answers);
    foreach (['reset1@example.com', 'reset2@example.com'] as $to) {
      $params = ['subject' => "$marker reset", 'body' => ['A reset link']];
      $sent = $this->container->get('plugin.manager.mail')->mail('sitebeam_test', 'probe', $to, 'en', $params);
      $this->assertTrue($sent['result'], "The site's mail to $to waits in the outbox.");
    }
    $kinds = array_map(static fn ($item): string => $item->kind, $this->container->get('sitebeam.outbox')->all());
    $this->assertSame(['contact', 'contact', 'site', 'site'], $kinds);
  }

  /**
   * Tests that a visitor's waiting messages are found and deleted by address.
   */
  public function testVisitorsWaitingMessagesAreFoundByTheirAddress(): void {
    $marker = 'contact' . bin2hex(random_bytes(5));
    $this->failEmailSends($marker, 503);
    $this->assertSame(202, $this->postJson(['subject' => $marker, 'email' => 'Ann.Visitor@Example.com'])->getStatusCode());
    $outbox = $this->container->get('sitebeam.outbox');
    [$item] = $outbox->forVisitor('ann.visitor@example.com');
    $this->assertSame('contact', $item->kind);
    $this->assertSame('ann.visitor@example.com', $item->visitor);
    $this->assertSame('owner@example.com', $item->recipient);
    $this->assertSame([], $outbox->forVisitor('bob@example.com'));
    $this->assertSame(1, $outbox->deleteForVisitor('ANN.VISITOR@example.com'));
    $this->assertSame([], $outbox->all());
  }

  /**
   * Tests that the instance's Retry-After reaches a visitor within an hour.
   */
  public function testInstanceRetryAfterIsClampedForTheVisitor(): void {
    $marker = 'contact' . bin2hex(random_bytes(5));
    // No room for contact messages: the 429 reaches the visitor.
    $this->config('sitebeam.settings')->set('mail.outbox.contact_share', 0)->save();
    $this->injectFault(['method' => 'POST', 'path_prefix' => '/v1/email', 'status' => 429, 'retry_after' => 86400], ['body_contains' => $marker]);
    $response = $this->postJson(['subject' => $marker]);
    $this->assertSame(429, $response->getStatusCode());
    $this->assertSame('3600', $response->headers->get('Retry-After'));
  }

  /**
   * Tests that an instance refused as private is not configured: 503.
   */
  public function testPrivateInstanceIsNotConfigured(): void {
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, FALSE);
    $this->config('sitebeam.settings')->set('base_url', 'https://10.20.30.40')->save();
    $response = $this->postJson([]);
    $this->assertSame(503, $response->getStatusCode());
    $this->assertSame('not_configured', $this->json($response)['i18n_code']);
    $this->assertSame([], $this->container->get('sitebeam.outbox')->all());
  }

  /**
   * Tests that signed in visitors need the form token.
   */
  public function testSignedInVisitorsNeedTheFormToken(): void {
    $this->setUpCurrentUser(['name' => 'member', 'mail' => 'member@example.com']);
    $missing = $this->postJson([]);
    $this->assertSame(403, $missing->getStatusCode());
    $this->assertSame('forbidden_origin', $this->json($missing)['i18n_code']);

    $token = $this->container->get('csrf_token')->get('sitebeam_contact');
    $this->assertSame(200, $this->postJson(['form_token' => $token])->getStatusCode());
    $this->assertCount(1, $this->stubEmails());
  }

  /**
   * A valid post with the given fields changed (NULL removes one).
   */
  private function fields(array $overrides): array {
    return array_filter($overrides + [
      'name' => 'Ann',
      'email' => 'ann@example.com',
      'subject' => 'Hello',
      'message' => 'A question about prices.',
      'homepage' => '',
      'ticket' => $this->container->get('sitebeam.contact_ticket')->issue((int) (microtime(TRUE) * 1000) - 10000),
    ], static fn ($value): bool => $value !== NULL);
  }

  /**
   * Posts the fields as a browser without JavaScript does.
   */
  private function postForm(array $overrides, string $referer = self::SITE . '/contact-us'): Response {
    return $this->handle(Request::create('/sitebeam/contact', 'POST', $this->fields($overrides), [], [], [
      'HTTP_ORIGIN' => self::SITE,
      'HTTP_REFERER' => $referer,
      'CONTENT_TYPE' => 'application/x-www-form-urlencoded',
    ]));
  }

  /**
   * Posts the fields as JSON from this site's origin.
   */
  private function postJson(array $overrides, array $server = []): Response {
    $server = array_filter($server + ['HTTP_ORIGIN' => self::SITE, 'CONTENT_TYPE' => 'application/json'], static fn ($value): bool => $value !== NULL);
    return $this->handle(Request::create('/sitebeam/contact', 'POST', [], [], [], $server, json_encode($this->fields($overrides))));
  }

  /**
   * The decoded JSON answer.
   */
  private function json(Response $response): array {
    return (array) json_decode((string) $response->getContent(), TRUE);
  }

}
