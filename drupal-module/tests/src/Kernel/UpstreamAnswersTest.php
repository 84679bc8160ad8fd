<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Form\FormState;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Form\ChatConsoleForm;
use Drupal\sitebeam\Form\SettingsForm;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\Tests\sitebeam\Traits\HttpKernelTrait;
use Drupal\Tests\sitebeam\Traits\MockedApiTrait;
use Drupal\Tests\sitebeam\Traits\SitebeamLogTrait;
use Drupal\Tests\user\Traits\UserCreationTrait;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The module against the real service's exact answers (cwcloud-api 3.15/3.16).
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class UpstreamAnswersTest extends KernelTestBase {

  use HttpKernelTrait;
  use MockedApiTrait;
  use SitebeamLogTrait;
  use UserCreationTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'dblog', 'sitebeam', 'sitebeam_test'];

  private const BASE_URL = 'https://api.example.org';
  private const SITE = 'http://localhost';

  private const AUTH_FAILED = '{"error":"authentification failed","i18n_code":"auth_failed"}';
  private const EMPTY_BODY_REFUSED = '{"detail":[{"loc":["body","to"],"msg":"field required","type":"value_error.missing"},{"loc":["body","subject"],"msg":"field required","type":"value_error.missing"}]}';
  private const NO_AI = '{"status":"ko","error":"Cwai not implemented","i18n_code":"cwai_not_implemened"}';
  private const AI_NOT_ENABLED = '{"status":"ko","error":"permission denied","i18n_code":"not_cwaiapi"}';
  private const MODELS = '{"status":"ok","models":["gpt2","nltksentiment"]}';
  private const SENT = '{"status":"ok","adapter":"log","response":""}';
  private const INTERNAL_ERROR = '{"detail":"Internal server error"}';
  private const NOT_CONFIRMED = '{"error":"your account has not been confirmed yet","i18n_code":"account_not_confirmed"}';
  private const NOT_EMAILAPI = '{"error":"permission denied","i18n_code":"not_emailapi"}';
  private const LOAD_STARTED = '{"status":"ok","http_status":202}';
  private const MODEL_NOT_FOUND = '{"status":"ko","i18n_code":"cwai_model_notfound","cid":"7a1e","http_status":404}';

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    unset($GLOBALS['config']['system.mail']['interface']['default']);
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
    $this->installSchema('sitebeam', [Outbox::TABLE]);
    $this->installSchema('dblog', ['watchdog']);
    $this->config('system.site')->set('mail', 'owner@example.com')->set('name', 'Kernel Site')->save();
    $this->config('sitebeam.settings')
      ->set('base_url', self::BASE_URL)
      ->set('api_token', 'upstream-token')
      ->set('contact.flood_limit', 50)
      ->save();
    $this->installMockedApi();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests that Test connection reports email and AI apart, sending nothing.
   *
   * @dataProvider connectionAnswers
   */
  #[DataProvider('connectionAnswers')]
  public function testTestConnectionReportsEmailAndAiApart(array $answers, array $expected, int $requests): void {
    $this->rawAnswers = $answers;
    $form_state = (new FormState())->setValues(['base_url' => self::BASE_URL, 'op' => 'Test connection']);
    $this->container->get('form_builder')->submitForm(SettingsForm::class, $form_state);

    $messenger = $this->container->get('messenger');
    foreach ($expected as $type => $words) {
      $this->assertStringContainsString($words, implode("\n", array_map('strval', $messenger->messagesByType($type))), $type);
    }
    $this->assertSame(array_keys($expected), array_keys($messenger->all()), 'No other kind of message.');
    // Besides the form's own listing: the probe, and the models if the token
    // is usable.
    $probe = array_values(array_filter($this->apiRequests, static fn (array $request): bool => $request['path'] === Contract::PATH_EMAIL));
    $this->assertCount(1, $probe);
    $this->assertSame([], $probe[0]['body'], 'The probe is an empty body: nothing can be sent.');
    $this->assertCount($requests, array_filter($this->apiRequests, static fn (array $request): bool => $request['path'] === Contract::PATH_MODELS));
  }

  /**
   * Data provider for testTestConnectionReportsEmailAndAiApart().
   */
  public static function connectionAnswers(): array {
    // The form lists the models once when it is built, so one request more.
    return [
      '3.16.15: email works, no AI' => [
        [Contract::PATH_EMAIL => [422, self::EMPTY_BODY_REFUSED], Contract::PATH_MODELS => [405, self::NO_AI]],
        [
          'status' => 'Email: connected to https://api.example.org, the token is accepted and email sending is enabled for the account (nothing was sent).',
          'warning' => 'AI: The instance at https://api.example.org has no AI API (405 cwai_not_implemened): the chat cannot be used with it. Email sending and the tracker are not affected.',
        ],
        2,
      ],
      '3.15.24: email and AI' => [
        [Contract::PATH_EMAIL => [422, self::EMPTY_BODY_REFUSED], Contract::PATH_MODELS => [200, self::MODELS]],
        ['status' => 'AI: 2 models available for the chat.'],
        2,
      ],
      'AI not enabled for the account' => [
        [Contract::PATH_EMAIL => [422, self::EMPTY_BODY_REFUSED], Contract::PATH_MODELS => [403, self::AI_NOT_ENABLED]],
        [
          'status' => 'the token is accepted and email sending is enabled',
          'warning' => 'does not offer the AI API to this account (403 not_cwaiapi)',
        ],
        2,
      ],
      'email not enabled, AI works' => [
        [
          Contract::PATH_EMAIL => [403, self::NOT_EMAILAPI],
          Contract::PATH_MODELS => [200, self::MODELS],
        ],
        [
          'error' => 'Email: Email sending is not enabled for this account (403 not_emailapi)',
          'status' => 'AI: 2 models available for the chat.',
        ],
        2,
      ],
      'account not confirmed: nothing more asked' => [
        [
          Contract::PATH_EMAIL => [403, self::NOT_CONFIRMED],
          Contract::PATH_MODELS => [403, self::NOT_CONFIRMED],
        ],
        ['error' => 'accepted the token, but the account is not confirmed yet (403 account_not_confirmed)'],
        1,
      ],
      'wrong token: nothing more asked' => [
        [Contract::PATH_EMAIL => [401, self::AUTH_FAILED], Contract::PATH_MODELS => [401, self::AUTH_FAILED]],
        ['error' => 'refused the token (401): the token is wrong'],
        1,
      ],
    ];
  }

  /**
   * Tests that another server's answer is one message, telling nothing of it.
   *
   * Whatever its status or body, the form cannot tell one server or port of
   * the network from another, and asks it nothing more.
   *
   * @dataProvider answersOfOtherServers
   */
  #[DataProvider('answersOfOtherServers')]
  public function testAnswerOfAnotherServerIsOneMessageTellingNothingOfIt(int $status, string $body): void {
    $this->rawAnswers = [Contract::PATH_EMAIL => [$status, $body], Contract::PATH_MODELS => [$status, $body]];
    foreach (['Test connection', 'Send test email'] as $button) {
      $this->apiRequests = [];
      $form_state = (new FormState())->setValues(['base_url' => self::BASE_URL, 'op' => $button]);
      $this->container->get('form_builder')->submitForm(SettingsForm::class, $form_state);
      $messages = array_map(static fn (array $list): array => array_map('strval', $list), $this->container->get('messenger')->deleteAll());
      $words = 'No Sitebeam instance answered at https://api.example.org: it cannot be reached, or what answers there is not an instance. Check the address and the network.';
      $this->assertSame(['error' => [$button === 'Test connection' ? 'Email: ' . $words : $words]], $messages, $button);
      $this->assertCount(1, array_filter($this->apiRequests, static fn (array $request): bool => $request['path'] === Contract::PATH_EMAIL), $button);
    }
  }

  /**
   * Data provider: what servers that are no instance answer.
   */
  public static function answersOfOtherServers(): array {
    return [
      'a web page' => [404, '<html><body>nginx/1.22 on intranet-7</body></html>'],
      'another service, 200' => [200, 'SSH-2.0-OpenSSH_9.2p1 Debian-2'],
      'another API refusing' => [401, '{"message":"Unauthorized","realm":"grafana"}'],
      'a server error' => [500, 'Internal Server Error: database at 10.0.0.5 down'],
      'another service, JSON' => [200, '{"acknowledged":true,"version":"elasticsearch 8"}'],
    ];
  }

  /**
   * Tests that the visitor's field the service refuses is named, 400.
   */
  public function testContactFieldRefusedByTheServiceIsNamedToTheVisitor(): void {
    $this->rawAnswers[Contract::PATH_EMAIL] = [422, self::refused('replyto')];
    $response = $this->postContact();
    $this->assertSame(400, $response->getStatusCode(), (string) $response->getContent());
    $answer = json_decode((string) $response->getContent(), TRUE);
    $this->assertSame('invalid_field', $answer['i18n_code']);
    $this->assertSame('email', $answer['field']);
    $this->assertStringContainsString('Your email address', $answer['error']);
    $this->assertStringContainsString('HTTP 422: replyto: value is not a valid email address', $this->sitebeamLog());
  }

  /**
   * Tests the site's refused field, an unconfirmed account, a 5xx, a success.
   */
  public function testContactOtherAnswersOfTheService(): void {
    $this->rawAnswers[Contract::PATH_EMAIL] = [422, self::refused('to')];
    $response = $this->postContact();
    $this->assertSame(503, $response->getStatusCode(), 'The recipient is the site\'s: not the visitor\'s to correct.');
    $this->assertSame('not_configured', json_decode((string) $response->getContent(), TRUE)['i18n_code']);
    $this->assertStringNotContainsString('owner@example.com', (string) $response->getContent());

    $this->rawAnswers[Contract::PATH_EMAIL] = [403, self::NOT_CONFIRMED];
    $response = $this->postContact();
    $this->assertSame(503, $response->getStatusCode(), 'No retry helps an unconfirmed account.');
    $this->assertSame('not_configured', json_decode((string) $response->getContent(), TRUE)['i18n_code']);

    $this->rawAnswers[Contract::PATH_EMAIL] = [500, self::INTERNAL_ERROR];
    $response = $this->postContact();
    $this->assertSame(202, $response->getStatusCode(), 'A 5xx passes: the message waits in the outbox.');
    $this->assertTrue(json_decode((string) $response->getContent(), TRUE)['queued']);

    $this->rawAnswers[Contract::PATH_EMAIL] = [200, self::SENT];
    $this->assertSame(200, $this->postContact()->getStatusCode());
  }

  /**
   * Tests that site mail the service refuses is logged with address and reason.
   */
  public function testSiteMailRefusedByTheServiceIsLoggedByName(): void {
    $this->config('system.mail')->set('interface.default', 'sitebeam_mail')->save();
    $this->rawAnswers[Contract::PATH_EMAIL] = [422, self::refused('to')];
    $this->assertFalse($this->mailAnn()['result']);
    $this->assertStringContainsString(
      'Mail sitebeam_test_probe to ann@example.com not sent by the API: HTTP 422: to: value is not a valid email address',
      $this->sitebeamLog(),
    );

    $this->rawAnswers[Contract::PATH_EMAIL] = [200, self::SENT];
    $this->assertTrue($this->mailAnn()['result'], 'A sent answer without id is success.');
  }

  /**
   * Tests that a hostile error text is logged safely wherever it is logged.
   *
   * Contact form, chat and site mail: one line per event, its escape
   * sequences and line breaks visible, the echoed token as [token]; the
   * Test connection message of the settings form shows no token either.
   */
  public function testHostileErrorTextIsLoggedOnOneLineWithoutTheToken(): void {
    $hostile = json_encode([
      'status' => 'ko',
      'error' => "token upstream-token refused\e]0;owned\x07\e[2J\nsitebeam: forged entry",
      'i18n_code' => 'bad_token',
    ]);
    $this->config('sitebeam.settings')->set('chat.enabled', TRUE)->set('chat.models', ['gpt2'])->save();
    $this->config('user.role.anonymous')->set('permissions', ['access content'])->save();
    $this->config('system.mail')->set('interface.default', 'sitebeam_mail')->save();
    $this->rawAnswers[Contract::PATH_EMAIL] = [400, $hostile];
    $this->rawAnswers[Contract::PATH_PROMPT] = [400, $hostile];

    $this->assertSame(502, $this->postContact()->getStatusCode());
    $chat = $this->handle(Request::create('/sitebeam/chat', 'POST', [], [], [], [
      'HTTP_ORIGIN' => self::SITE,
      'CONTENT_TYPE' => 'application/json',
    ], '{"message":"Hi"}'));
    $this->assertSame(502, $chat->getStatusCode());
    $this->assertFalse($this->mailAnn()['result']);

    $safe = 'HTTP 400 bad_token: token [token] refused\e]0;owned\x07\e[2J\nsitebeam: forged entry';
    $lines = explode("\n", $this->sitebeamLog());
    $this->assertSame([
      'Contact message not sent by the API: ' . $safe,
      'Chat prompt to gpt2 not answered by the API: ' . $safe,
      'Mail sitebeam_test_probe to ann@example.com not sent by the API: ' . $safe,
    ], $lines);

    $form_state = (new FormState())->setValues(['base_url' => self::BASE_URL, 'op' => 'Test connection']);
    $this->container->get('form_builder')->submitForm(SettingsForm::class, $form_state);
    $shown = implode(' ', array_map('strval', array_merge(...array_values($this->container->get('messenger')->all()))));
    $this->assertStringContainsString('token [token] refused', $shown);
    $this->assertStringNotContainsString('upstream-token', $shown);
  }

  /**
   * Tests that the console's load ends on the service's 202 and names its 404.
   */
  public function testConsoleLoadEndsOnTheServiceAnswer(): void {
    $this->setUpCurrentUser(['name' => 'team'], ['use sitebeam chat console']);
    $this->rawAnswers[Contract::PATH_MODEL_PREFIX . 'gpt2'] = [202, self::LOAD_STARTED];
    $response = $this->consoleLoad('gpt2');
    $this->assertSame(
      ['status' => 'ok', 'model' => 'gpt2', 'state' => 'started'],
      json_decode((string) $response->getContent(), TRUE),
    );

    $this->rawAnswers[Contract::PATH_MODEL_PREFIX . 'nope'] = [404, self::MODEL_NOT_FOUND];
    $response = $this->consoleLoad('nope');
    $this->assertSame(502, $response->getStatusCode(), (string) $response->getContent());
    $this->assertStringContainsString('HTTP 404 cwai_model_notfound', (string) $response->getContent());

    // Without JavaScript, the button's own submit handler.
    $form = [];
    $this->container->get('class_resolver')->getInstanceFromDefinition(ChatConsoleForm::class)
      ->loadModel($form, (new FormState())->setValues(['model' => 'gpt2']));
    $status = implode("\n", array_map('strval', $this->container->get('messenger')->messagesByType('status')));
    $this->assertStringContainsString('The instance started loading gpt2. It does not tell when the model is ready', $status);
  }

  /**
   * The service's 422 refusing one body field as no valid address.
   */
  private static function refused(string $field): string {
    $issue = [
      'loc' => ['body', $field],
      'msg' => 'value is not a valid email address',
      'type' => 'value_error.email',
    ];
    return json_encode(['detail' => [$issue]]);
  }

  /**
   * Sends the test module's probe mail to ann@example.com.
   */
  private function mailAnn(): array {
    $params = ['subject' => 'Hi', 'body' => ['x']];
    return $this->container->get('plugin.manager.mail')->mail('sitebeam_test', 'probe', 'ann@example.com', 'en', $params);
  }

  /**
   * Asks the console's load route, as its script does, to load a model.
   */
  private function consoleLoad(string $model): Response {
    $path = 'admin/config/services/sitebeam/chat/load';
    $query = ['model' => $model, 'token' => $this->container->get('csrf_token')->get($path)];
    return $this->handle(Request::create('/' . $path, 'GET', $query));
  }

  /**
   * Posts a valid contact message as the widget does.
   */
  private function postContact(): Response {
    $fields = [
      'name' => 'Ann',
      'email' => 'ann@example.com',
      'subject' => 'Hello',
      'message' => 'A question.',
      'homepage' => '',
      'ticket' => $this->container->get('sitebeam.contact_ticket')->issue((int) (microtime(TRUE) * 1000) - 10000),
    ];
    return $this->handle(Request::create('/sitebeam/contact', 'POST', [], [], [], [
      'HTTP_ORIGIN' => self::SITE,
      'CONTENT_TYPE' => 'application/json',
    ], json_encode($fields)));
  }

}
