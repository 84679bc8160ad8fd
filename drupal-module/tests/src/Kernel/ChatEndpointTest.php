<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Form\FormState;
use Drupal\Core\Session\AnonymousUserSession;
use Drupal\Core\Session\UserSession;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Form\ChatConsoleForm;
use Drupal\sitebeam\Plugin\Block\ChatBlock;
use Drupal\Tests\sitebeam\Traits\HttpKernelTrait;
use Drupal\Tests\sitebeam\Traits\MockedApiTrait;
use Drupal\Tests\user\Traits\UserCreationTrait;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The chat beyond the shared cases: loading, allowances, block, console.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class ChatEndpointTest extends KernelTestBase {

  use HttpKernelTrait;
  use MockedApiTrait;
  use UserCreationTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  private const SITE = 'http://localhost';
  private const TOKEN = 'chat-endpoint-token-9b2e';
  private const LOAD = '/admin/config/services/sitebeam/chat/load';

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->config('user.role.anonymous')->set('permissions', ['access content'])->save();
    $this->config('sitebeam.settings')
      ->set('base_url', 'https://api.example.test')
      ->set('api_token', self::TOKEN)
      ->set('chat.enabled', TRUE)
      ->set('chat.models', ['mock', 'nltksentiment'])
      ->set('chat.settings.max_length', 40)
      ->set('chat.settings.do_sample', TRUE)
      ->save();
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
    $this->installMockedApi();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests the prompt: typed owner settings and the token go to the API only.
   *
   * A model still loading is asked to load, its Retry-After passed on.
   */
  public function testPromptsCarryTheOwnerSettingsAndWarmModelsUp(): void {
    $response = $this->postJson(['message' => 'Hi', 'settings' => ['num_beams' => 99]]);
    $this->assertSame(200, $response->getStatusCode());
    $this->assertSame([['model' => 'mock', 'message' => 'Hi', 'settings' => ['max_length' => 40, 'do_sample' => TRUE]]], $this->promptsReceived());
    $this->assertSame([self::TOKEN], $this->apiRequests[0]['headers'][Contract::AUTH_HEADER] ?? NULL);
    $this->assertStringNotContainsString(self::TOKEN, $response->headers . $response->getContent());

    $this->apiRequests = [];
    $refusal = ['status' => 'ko', 'error' => 'loading', 'i18n_code' => 'model_loading'];
    $this->promptAnswer = [503, ['Retry-After' => '4'], $refusal];
    $response = $this->postJson(['message' => 'Hi', 'model' => 'nltksentiment']);
    $this->assertSame(503, $response->getStatusCode());
    $this->assertSame('4', $response->headers->get('Retry-After'));
    $this->assertSame('retry-after', $response->headers->get('Access-Control-Expose-Headers'));
    $this->assertSame(['nltksentiment'], array_column($this->promptsReceived(), 'model'));
    $loads = array_values(array_filter($this->apiRequests, static fn (array $request): bool => $request['method'] === 'GET'));
    $this->assertSame(Contract::PATH_MODEL_PREFIX . 'nltksentiment', $loads[0]['path'] ?? NULL);
    $this->assertCount(1, $loads);
  }

  /**
   * Tests that an answer of the wrong shape or size gets "try again".
   *
   * A score the instance sends as HTML reaches no visitor; the answer is
   * read up to the limit only.
   */
  public function testAnswerOfTheWrongShapeOrSizeIsTryAgain(): void {
    $answers = [
      ['response' => ['hi'], 'score' => '<img src=x onerror=alert(1)>', 'status' => 'ok'],
      ['response' => 'a string', 'score' => 1, 'status' => 'ok'],
      ['response' => [['a' => 1], 7], 'score' => 1, 'status' => 'ok'],
      ['response' => [str_repeat('a', Contract::LIMIT_ANSWER_BYTES)], 'score' => 1, 'status' => 'ok'],
    ];
    foreach ($answers as $index => $answer) {
      $this->promptAnswer = [200, [], $answer];
      $response = $this->postJson(['message' => 'Hi', 'model' => 'nltksentiment']);
      $this->assertSame(502, $response->getStatusCode(), "answer $index");
      $body = json_decode((string) $response->getContent(), TRUE);
      $this->assertSame('upstream_failed', $body['i18n_code'] ?? NULL, "answer $index");
      $this->assertStringNotContainsString('<img', (string) $response->getContent());
    }
  }

  /**
   * Tests that the daily limit counts all visitors together till midnight UTC.
   *
   * Refused messages (an invalid one here) spend nothing of the day.
   */
  public function testDailyLimitCountsEveryVisitorTogetherUntilMidnightUtc(): void {
    $this->config('sitebeam.settings')->set('chat.daily_limit', 2)->save();
    $from = function (string $address, array $body): Response {
      $request = $this->jsonRequest('/sitebeam/chat', $body);
      $request->server->set('REMOTE_ADDR', $address);
      return $this->handle($request);
    };
    $this->assertSame(400, $from('10.0.0.1', ['message' => ''])->getStatusCode());
    $this->assertSame(200, $from('10.0.0.2', ['message' => 'one'])->getStatusCode());
    $this->assertSame(200, $from('10.0.0.3', ['message' => 'two'])->getStatusCode());

    $before = time();
    $response = $from('10.0.0.4', ['message' => 'three']);
    $after = time();
    $this->assertSame(429, $response->getStatusCode());
    $this->assertSame('daily_limit_reached', json_decode((string) $response->getContent(), TRUE)['i18n_code'] ?? NULL);
    $retry_after = (int) $response->headers->get('Retry-After');
    $this->assertGreaterThanOrEqual(86400 - $after % 86400, $retry_after);
    $this->assertLessThanOrEqual(86400 - $before % 86400 + 1, $retry_after);
    $this->assertCount(2, $this->promptsReceived());

    $this->config('sitebeam.settings')->set('chat.daily_limit', 0)->save();
    $this->assertSame(200, $from('10.0.0.5', ['message' => 'no cap'])->getStatusCode());
  }

  /**
   * Tests that a new site's chat stops at 500 messages a day; 0 is no limit.
   */
  public function testDailyLimitIsFiveHundredUnlessTheOwnerSetsNone(): void {
    $this->container->get('database')->insert(DailyChatBudget::TABLE)
      ->fields(['day' => gmdate('Y-m-d'), 'messages' => 499])
      ->execute();
    $this->assertSame(200, $this->postJson(['message' => 'the 500th'])->getStatusCode());
    $response = $this->postJson(['message' => 'the 501st']);
    $this->assertSame(429, $response->getStatusCode());
    $this->assertSame('daily_limit_reached', json_decode((string) $response->getContent(), TRUE)['i18n_code'] ?? NULL);
    $this->assertSame(['the 500th'], array_column($this->promptsReceived(), 'message'));

    $this->config('sitebeam.settings')->set('chat.daily_limit', 0)->save();
    $this->assertSame(200, $this->postJson(['message' => 'no limit, on purpose'])->getStatusCode());
  }

  /**
   * Tests that the update gives a site without a daily limit the default.
   *
   * A limit the owner set stays.
   */
  public function testUpdateGivesSiteWithoutDailyLimitTheDefault(): void {
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    $storage = $this->container->get('config.storage');
    $saved = $storage->read('sitebeam.settings');
    $saved['chat']['daily_limit'] = NULL;
    $storage->write('sitebeam.settings', $saved);
    $this->container->get('config.factory')->reset('sitebeam.settings');
    sitebeam_update_10007();
    $this->assertSame(500, $this->config('sitebeam.settings')->get('chat.daily_limit'));

    $this->config('sitebeam.settings')->set('chat.daily_limit', 0)->save();
    sitebeam_update_10007();
    $this->assertSame(0, $this->config('sitebeam.settings')->get('chat.daily_limit'));
  }

  /**
   * Tests that the chat's allowance is its own, apart from the contact form's.
   */
  public function testChatHasItsOwnAllowance(): void {
    $this->config('sitebeam.settings')->set('chat.flood_limit', 2)->set('contact.flood_limit', 2)->save();
    $this->assertSame(200, $this->postJson(['message' => 'one'])->getStatusCode());
    $this->assertSame(200, $this->postJson(['message' => 'two'])->getStatusCode());
    $this->assertSame(429, $this->postJson(['message' => 'three'])->getStatusCode());
    $contact = $this->handle($this->jsonRequest('/sitebeam/contact', []));
    $this->assertNotSame(429, $contact->getStatusCode(), 'The contact form still has its whole allowance.');

    $without_javascript = Request::create('/sitebeam/chat', 'POST', ['message' => 'Still <there>?'], [], [], [
      'HTTP_ORIGIN' => self::SITE,
      'CONTENT_TYPE' => 'application/x-www-form-urlencoded',
    ]);
    $page = $this->handle($without_javascript);
    $this->assertSame(429, $page->getStatusCode());
    $this->assertStringContainsString('>Still &lt;there&gt;?</textarea>', (string) $page->getContent(), 'The page keeps the message.');
  }

  /**
   * Tests that settings.php overrides reach the endpoint.
   */
  public function testSettingsPhpOverridesReachTheEndpoint(): void {
    $GLOBALS['config']['sitebeam.settings']['chat']['models'] = ['nltksentiment'];
    $GLOBALS['config']['sitebeam.settings']['chat']['settings']['temperature'] = 0.5;
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $models = $this->handle(Request::create('/sitebeam/chat', 'GET', [], [], [], ['HTTP_ORIGIN' => self::SITE]));
    $this->assertSame(['status' => 'ok', 'models' => ['nltksentiment']], json_decode((string) $models->getContent(), TRUE));
    $this->postJson(['message' => 'Hi']);
    $settings = ['max_length' => 40, 'temperature' => 0.5, 'do_sample' => TRUE];
    $this->assertSame(['model' => 'nltksentiment', 'message' => 'Hi', 'settings' => $settings], $this->promptsReceived()[0]);

    $GLOBALS['config']['sitebeam.settings']['chat']['enabled'] = FALSE;
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->assertSame(503, $this->postJson(['message' => 'Hi'])->getStatusCode());
    unset($GLOBALS['config']['sitebeam.settings']);
  }

  /**
   * Tests that the block renders the widget around a form, or nothing.
   */
  public function testBlockRendersTheWidgetWithItsFallbackOrNothing(): void {
    $build = $this->chatBlock()->build();
    $this->assertContains('sitebeam/chat', $build['#attached']['library']);
    $this->assertContains('config:sitebeam.settings', $build['#cache']['tags']);
    $html = (string) $this->container->get('renderer')->renderInIsolation($build);
    $this->assertStringContainsString('<sitebeam-chat action="/sitebeam/chat"', $html);
    $this->assertStringContainsString('<form action="/sitebeam/chat" method="post">', $html);
    $this->assertStringContainsString('name="message"', $html);
    $this->assertStringContainsString('<option>nltksentiment</option>', $html);
    $this->assertStringContainsString('name="homepage"', $html);
    $this->assertStringNotContainsString(self::TOKEN, $html);
    $this->assertTrue($this->chatBlock()->access(new AnonymousUserSession()), 'Anonymous visitors may access content here.');
    $reader = new UserSession(['uid' => 7, 'roles' => ['authenticated']]);
    $this->assertFalse($this->chatBlock()->access($reader), 'The endpoint would refuse this account.');

    $this->config('sitebeam.settings')->set('chat.enabled', FALSE)->save();
    $off = $this->chatBlock()->build();
    $this->assertArrayNotHasKey('#theme', $off);
    $this->assertContains('config:sitebeam.settings', $off['#cache']['tags']);
  }

  /**
   * Tests the console: its permission, the load route's token, prompts.
   *
   * One test: each kernel test installs Drupal afresh.
   */
  public function testConsoleLoadsAndPromptsForItsTeamOnly(): void {
    $this->setUpCurrentUser(['name' => 'editor'], ['administer sitebeam']);
    $this->assertSame(403, $this->handle(Request::create('/admin/config/services/sitebeam/chat'))->getStatusCode());
    $this->assertSame(403, $this->handle(Request::create(self::LOAD, 'GET', ['model' => 'mock']))->getStatusCode());
    $this->assertSame([], $this->apiRequests);

    $this->setUpCurrentUser(['name' => 'team'], ['use sitebeam chat console']);
    $without = $this->handle(Request::create(self::LOAD, 'GET', ['model' => 'mock']));
    $this->assertSame(403, $without->getStatusCode());

    $token = $this->container->get('csrf_token')->get('admin/config/services/sitebeam/chat/load');
    $response = $this->handle(Request::create(self::LOAD, 'GET', ['model' => 'gpt2', 'token' => $token]));
    $this->assertSame(200, $response->getStatusCode(), (string) $response->getContent());
    $this->assertSame(['status' => 'ok', 'model' => 'gpt2', 'state' => 'loading'], json_decode((string) $response->getContent(), TRUE));
    $this->assertStringContainsString('no-store', (string) $response->headers->get('Cache-Control'));
    $this->assertStringNotContainsString(self::TOKEN, $response->headers . $response->getContent());
    $bad = $this->handle(Request::create(self::LOAD, 'GET', ['model' => '../x', 'token' => $token]));
    $this->assertSame(400, $bad->getStatusCode());

    $page = $this->handle(Request::create('/admin/config/services/sitebeam/chat'));
    $this->assertSame(200, $page->getStatusCode());
    $this->assertStringContainsString('<option value="log">log</option>', (string) $page->getContent());
    $this->assertStringNotContainsString(self::TOKEN, (string) $page->getContent());
    // The page's own load address carries a token that the route accepts.
    preg_match('@<script type="application/json" data-drupal-selector="drupal-settings-json">(.*?)</script>@s', (string) $page->getContent(), $match);
    $load_url = json_decode($match[1] ?? '{}', TRUE)['sitebeamChatConsole']['loadUrl'] ?? '';
    $this->assertStringContainsString('token=', $load_url);
    $load = $this->handle(Request::create($load_url . '&model=mock'));
    $this->assertSame(200, $load->getStatusCode(), (string) $load->getContent());

    $this->promptAnswer = [200, [], ['response' => ['<b>first</b>', 'second'], 'score' => 0.25, 'status' => 'ok']];
    $form_state = (new FormState())->setValues([
      'model' => 'log',
      'message' => 'Hello console',
      'settings' => ['num_beans' => '3', 'top_p' => '0.9', 'early_stopping' => 'false', 'top_k' => ''],
      'op' => 'Send prompt',
    ]);
    $this->container->get('form_builder')->submitForm(ChatConsoleForm::class, $form_state);
    $this->assertSame([], array_map('strval', $form_state->getErrors()));
    $settings = ['num_beans' => 3, 'top_p' => 0.9, 'early_stopping' => FALSE];
    $this->assertSame([['model' => 'log', 'message' => 'Hello console', 'settings' => $settings]], $this->promptsReceived());
    $form = $this->container->get('form_builder')->buildForm(ChatConsoleForm::class, $form_state);
    $html = (string) $this->container->get('renderer')->renderInIsolation($form);
    $this->assertStringContainsString('<p>&lt;b&gt;first&lt;/b&gt;</p>', $html);
    $this->assertStringContainsString('<p>second</p>', $html);
    $this->assertStringNotContainsString('Score:', $html, 'log has no natural score.');

    $this->apiRequests = [];
    $form_state = (new FormState())->setValues([
      'model' => 'mock',
      'message' => 'Hi',
      'settings' => ['temperature' => '0'],
      'op' => 'Send prompt',
    ]);
    $this->container->get('form_builder')->submitForm(ChatConsoleForm::class, $form_state);
    $this->assertStringContainsString('temperature must be a number greater than 0', strip_tags(implode(' ', array_map('strval', $form_state->getErrors()))));
    $this->assertSame([], $this->promptsReceived());
  }

  /**
   * Tests that the update hook adds the chat defaults to an existing site.
   */
  public function testUpdateHookAddsTheChatDefaults(): void {
    $config = $this->container->get('config.factory')->getEditable('sitebeam.settings');
    $config->clear('chat')->save();
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    sitebeam_update_10002();
    // The later updates run after it, as update.php runs them all.
    sitebeam_update_10006();
    $chat = $this->container->get('config.factory')->get('sitebeam.settings')->get('chat');
    $this->assertFalse($chat['enabled']);
    $this->assertSame([], $chat['models']);
    $this->assertSame(Contract::CHAT_RATE_LIMIT_COUNT, $chat['flood_limit']);
    $this->assertSame(Contract::CHAT_RATE_LIMIT_WINDOW_S, $chat['flood_window']);
    $this->assertNull($chat['settings']['temperature']);
    $this->assertNull($chat['daily_limit']);
    // Valid once the later updates added their keys, as update.php runs them.
    sitebeam_update_10005();
    sitebeam_update_10006();
    sitebeam_update_10007();
    $typed = $this->container->get('config.typed')->createFromNameAndData('sitebeam.settings', $this->config('sitebeam.settings')->getRawData());
    $this->assertCount(0, $typed->validate());

    $config->set('chat.enabled', TRUE)->save();
    sitebeam_update_10002();
    $this->assertTrue($this->config('sitebeam.settings')->get('chat.enabled'), 'A second run changes nothing.');
  }

  /**
   * The block plugin.
   */
  private function chatBlock(): ChatBlock {
    return $this->container->get('plugin.manager.block')->createInstance('sitebeam_chat', []);
  }

  /**
   * Posts JSON from this site's origin.
   */
  private function postJson(array $body): Response {
    return $this->handle($this->jsonRequest('/sitebeam/chat', $body));
  }

  /**
   * A JSON post from this site's origin.
   */
  private function jsonRequest(string $path, array $body): Request {
    $server = ['HTTP_ORIGIN' => self::SITE, 'CONTENT_TYPE' => 'application/json'];
    return Request::create($path, 'POST', [], [], [], $server, json_encode($body));
  }

}
