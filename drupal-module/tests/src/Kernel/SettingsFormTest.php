<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Form\FormState;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Api\InstanceHost;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Form\SettingsForm;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;

/**
 * The settings form: token source and storage, validation, mailer switch.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class SettingsFormTest extends KernelTestBase {

  use ServerStubTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    // The stub (the real service too, in these tests) listens on 127.0.0.1.
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, TRUE);
    unset($GLOBALS['config']['system.mail']['interface']['default']);
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
    $this->config('system.mail')->set('interface.default', 'php_mail')->save();
  }

  /**
   * Tests that typed token is stored but never rendered.
   */
  public function testTypedTokenIsStoredButNeverRendered(): void {
    $this->submit(['base_url' => 'https://api.example.test', 'api_token' => 'typed-secret-token']);
    $this->assertSame('typed-secret-token', $this->config('sitebeam.settings')->get('api_token'));
    $this->assertSame('config', $this->container->get('sitebeam.credentials_factory')->siteCredentials()->tokenSource());

    $html = $this->renderForm();
    $this->assertStringNotContainsString('typed-secret-token', $html);
    $this->assertStringContainsString('stored in the site configuration', $html);
    $this->assertStringContainsString('name="api_token_clear"', $html);
  }

  /**
   * Tests that an empty token field keeps the token; the checkbox removes it.
   */
  public function testEmptyTokenFieldKeepsTheStoredTokenAndTheCheckboxRemovesIt(): void {
    $this->config('sitebeam.settings')->set('api_token', 'kept-token')->save();
    $this->submit(['base_url' => 'https://api.example.test', 'api_token' => '']);
    $this->assertSame('kept-token', $this->config('sitebeam.settings')->get('api_token'));

    $this->submit(['base_url' => 'https://api.example.test', 'api_token_clear' => 1]);
    $this->assertSame('', $this->config('sitebeam.settings')->get('api_token'));
  }

  /**
   * Tests that settings php token hides the token field.
   */
  public function testSettingsPhpTokenHidesTheTokenField(): void {
    $this->setSetting('sitebeam_api_token', 'settings-secret-token');
    $html = $this->renderForm();
    $this->assertStringContainsString('set in settings.php', $html);
    $this->assertStringNotContainsString('name="api_token"', $html);
    $this->assertStringNotContainsString('settings-secret-token', $html);
  }

  /**
   * Tests that plain http instance is refused with a clear message.
   */
  public function testPlainHttpInstanceIsRefusedWithClearMessage(): void {
    $errors = $this->submit(['base_url' => 'http://api.example.com']);
    $this->assertStringContainsString('must use https', (string) ($errors['base_url'] ?? ''));
    $this->assertSame('', $this->container->get('config.storage')->read('sitebeam.settings')['base_url']);
  }

  /**
   * Tests that the outbox fields show hours and MiB and save seconds and bytes.
   *
   * The contact messages' share and the days failed mail is kept save as
   * typed; a size too large for an integer is an error on its field.
   */
  public function testOutboxFieldsSaveSecondsAndBytes(): void {
    $html = $this->renderForm();
    $this->assertMatchesRegularExpression('/name="outbox_lifetime"[^>]*value="72"|value="72"[^>]*name="outbox_lifetime"/', $html);
    $this->assertMatchesRegularExpression('/name="outbox_max_bytes"[^>]*value="50"|value="50"[^>]*name="outbox_max_bytes"/', $html);
    $this->assertMatchesRegularExpression('/name="outbox_contact_share"[^>]*value="50"|value="50"[^>]*name="outbox_contact_share"/', $html);
    $this->assertMatchesRegularExpression('/name="outbox_retention_days"[^>]*value="30"|value="30"[^>]*name="outbox_retention_days"/', $html);
    $this->assertSame([], $this->submit([
      'outbox_lifetime' => 24,
      'outbox_max_mails' => 200,
      'outbox_max_bytes' => 5,
      'outbox_contact_share' => 20,
      'outbox_retention_days' => 7,
    ]));
    $saved = $this->container->get('config.storage')->read('sitebeam.settings')['mail']['outbox'];
    $this->assertSame([
      'lifetime' => 86400,
      'max_mails' => 200,
      'max_bytes' => 5242880,
      'contact_share' => 20,
      'retention_days' => 7,
    ], $saved);

    $errors = $this->submit(['outbox_max_bytes' => '99999999999999999999']);
    $this->assertArrayHasKey('outbox_max_bytes', $errors);
    $this->assertSame(5242880, $this->container->get('config.storage')->read('sitebeam.settings')['mail']['outbox']['max_bytes']);
  }

  /**
   * Tests that a recipient the API refuses is named on save, a real one saved.
   */
  public function testRecipientAtSpecialUseDomainIsRefusedOnSave(): void {
    $errors = $this->submit(['contact_recipient' => 'owner@shop.local']);
    $this->assertStringContainsString('The Sitebeam API refuses <em class="placeholder">owner@shop.local</em>: .local is a special-use domain', (string) ($errors['contact_recipient'] ?? ''));
    $this->assertSame('', $this->container->get('config.storage')->read('sitebeam.settings')['contact']['recipient']);

    $this->assertSame([], $this->submit(['contact_recipient' => 'owner@example.org']));
    $this->assertSame('owner@example.org', $this->container->get('config.storage')->read('sitebeam.settings')['contact']['recipient']);
  }

  /**
   * Tests that paths and roles are saved as lists.
   */
  public function testPathsAndRolesAreSavedAsLists(): void {
    $this->submit([
      'base_url' => 'http://127.0.0.1:4010',
      'visibility_paths' => "/admin*\r\n\r\n/private/*\n",
      // Programmatic submissions mark unchecked boxes with NULL.
      'visibility_roles' => ['authenticated' => 'authenticated', 'anonymous' => NULL],
    ]);
    $config = $this->config('sitebeam.settings');
    $this->assertSame('http://127.0.0.1:4010', $config->get('base_url'));
    $this->assertSame(['/admin*', '/private/*'], $config->get('visibility.paths'));
    $this->assertSame(['authenticated'], $config->get('visibility.roles'));
  }

  /**
   * Tests that kept query parameters are saved as a list, other text refused.
   */
  public function testKeptQueryParametersAreSavedAsListAndOtherTextRefused(): void {
    $this->assertSame([], $this->submit(['tracker_keep_query' => ' ref , lang ']));
    $this->assertSame('ref,lang', $this->config('sitebeam.settings')->get('tracker.keep_query'));

    $errors = $this->submit(['tracker_keep_query' => 'ref; token=1']);
    $this->assertStringContainsString('must be parameter names separated by commas', (string) ($errors['tracker_keep_query'] ?? ''));
    $this->assertSame('ref,lang', $this->container->get('config.storage')->read('sitebeam.settings')['tracker']['keep_query']);
  }

  /**
   * Tests that the permission says it is as strong as full administration.
   *
   * Whoever sets the instance receives every mail of the site, password
   * reset links included.
   */
  public function testAdministerPermissionSaysItEqualsFullAdministration(): void {
    $permission = $this->container->get('user.permissions')->getPermissions()['administer sitebeam'];
    $this->assertTrue($permission['restrict access']);
    $description = (string) $permission['description'];
    $this->assertStringContainsString('all site mail, password reset links included, to another instance', $description);
    $this->assertStringContainsString('equivalent to full administration', $description);
  }

  /**
   * Tests the daily chat limit: 500 at first, 0 for none, never empty.
   *
   * The form shows today's count beside it.
   */
  public function testDailyChatLimitIsFiveHundredAtFirstAndZeroForNone(): void {
    $this->container->get('database')->insert(DailyChatBudget::TABLE)
      ->fields(['day' => gmdate('Y-m-d'), 'messages' => 42])
      ->execute();
    $html = $this->renderForm();
    $this->assertMatchesRegularExpression('~name="chat_daily_limit" value="500"~', $html);
    $this->assertStringContainsString('Today so far: 42.', $html);

    $this->assertSame([], $this->submit(['chat_daily_limit' => '200']));
    $this->assertSame(200, $this->config('sitebeam.settings')->get('chat.daily_limit'));
    $this->assertMatchesRegularExpression('~name="chat_daily_limit" value="200"~', $this->renderForm());

    $this->assertSame([], $this->submit(['chat_daily_limit' => '0']));
    $this->assertSame(0, $this->config('sitebeam.settings')->get('chat.daily_limit'));

    foreach (['', '-1', 'many'] as $typed) {
      $this->assertArrayHasKey('chat_daily_limit', $this->submit(['chat_daily_limit' => $typed]), "'$typed' is refused");
      $this->assertSame(0, $this->container->get('config.storage')->read('sitebeam.settings')['chat']['daily_limit']);
    }
  }

  /**
   * Tests that mail route switches the default mailer and back.
   */
  public function testMailRouteSwitchesTheDefaultMailerAndBack(): void {
    $this->submit(['mail_route' => 1]);
    $this->assertSame('sitebeam_mail', $this->config('system.mail')->get('interface.default'));
    $this->assertSame('php_mail', $this->config('sitebeam.settings')->get('mail.previous_interface'));

    $this->submit(['mail_route' => NULL]);
    $this->assertSame('php_mail', $this->config('system.mail')->get('interface.default'));
  }

  /**
   * Tests that test connection probes the email api.
   *
   * @dataProvider connectionAnswers
   */
  #[DataProvider('connectionAnswers')]
  public function testTestConnectionProbesTheEmailApi(string $token, bool $reachable, ?array $account, ?int $fault, string $type, string $words): void {
    $this->resetStub();
    if ($account !== NULL) {
      $this->setStubAccountApis($account);
    }
    if ($fault !== NULL) {
      // The probe's body is empty: the fault matches this case's own token.
      $this->injectFault(['method' => 'POST', 'path_prefix' => '/v1/email', 'status' => $fault], ['headers' => ['X-Auth-Token' => $token]]);
    }
    $base_url = $reachable ? $this->stubUrl() : 'http://127.0.0.1:9';
    $this->submit(['base_url' => $base_url, 'api_token' => $token, 'op' => 'Test connection']);
    $messages = array_map('strval', $this->container->get('messenger')->messagesByType($type));
    $this->assertStringContainsString($words, implode("\n", $messages));
    $this->assertStringNotContainsString($token, implode("\n", $messages));
    // No error of cURL's tells a closed port from a filtered one.
    $this->assertDoesNotMatchRegularExpression('/cURL|connection refused|failed to connect/i', implode("\n", $messages));
    $this->assertSame('', $this->container->get('config.storage')->read('sitebeam.settings')['api_token'], 'Testing saves nothing.');
    $this->assertSame([], $this->stubEmails(), 'Testing sends nothing.');
  }

  /**
   * Data provider for testTestConnectionProbesTheEmailApi().
   */
  public static function connectionAnswers(): array {
    return [
      'success' => [
        'dev-token',
        TRUE,
        NULL,
        NULL,
        'status',
        'the token is accepted and email sending is enabled for the account (nothing was sent)',
      ],
      'wrong token' => ['not-the-token', TRUE, NULL, NULL, 'error', 'refused the token (401): the token is wrong'],
      'email API not enabled, AI API enabled' => [
        'dev-token',
        TRUE,
        ['email_api' => FALSE, 'ai_api' => TRUE],
        NULL,
        'error',
        'Email sending is not enabled for this account (403 not_emailapi)',
      ],
      'email sending switched off' => [
        'token-of-the-405-case',
        TRUE,
        NULL,
        405,
        'error',
        'has email sending switched off (405)',
      ],
      'unreachable' => [
        'dev-token',
        FALSE,
        NULL,
        NULL,
        'error',
        'No Sitebeam instance answered at http://127.0.0.1:9: it cannot be reached, or what answers there is not an instance.',
      ],
    ];
  }

  /**
   * Tests that the buttons reach no private host or unusual port by default.
   *
   * Nothing is sent: not to the stub on 127.0.0.1, which settings.php must
   * allow (as setUp() does), nor anywhere on a private network or to a port
   * of a public host other than 443, 80 and 8080.
   */
  public function testPrivateHostsAndUnusualPortsAreRefusedUnlessSettingsPhpAllowsThem(): void {
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, NULL);
    $this->container->set('sitebeam.instance_host', new class() extends InstanceHost {

      /**
       * A name of the site's network, and one on the internet.
       */
      protected function addresses(string $host): array {
        return $host === 'intranet.example.org' ? ['93.184.216.34', '10.1.2.3'] : ['93.184.216.34'];
      }

    });
    $this->resetStub();
    $refused = [
      $this->stubUrl(),
      'https://10.0.0.1',
      'https://192.168.1.1:8443',
      'https://169.254.169.254',
      'https://[::1]:8080',
      'https://[fd00::5]',
      'https://100.64.1.1',
      'https://intranet.example.org',
      'https://shop.localhost',
      'https://93.184.216.34:22',
      'https://www.example.org:6379',
    ];
    foreach ($refused as $url) {
      foreach (['Test connection', 'Send test email'] as $button) {
        $this->submit(['base_url' => $url, 'api_token' => 'dev-token', 'op' => $button]);
        $messages = array_map(static fn (array $list): string => implode("\n", array_map('strval', $list)), $this->container->get('messenger')->deleteAll());
        $this->assertSame(['error'], array_keys($messages), "$button $url");
        $this->assertStringContainsString("Nothing was sent to $url: it is on a private or loopback network, or on a port other than 443, 80 and 8080.", $messages['error'], "$button $url");
        $this->assertStringContainsString("\$settings['sitebeam_allow_private_hosts'] = TRUE;", html_entity_decode($messages['error'], ENT_QUOTES), "$button $url");
      }
    }
    $this->assertSame([], $this->stubEmails());

    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, TRUE);
    $this->submit(['base_url' => $this->stubUrl(), 'api_token' => 'dev-token', 'op' => 'Test connection']);
    $status = implode("\n", array_map('strval', $this->container->get('messenger')->messagesByType('status')));
    $this->assertStringContainsString('Email: connected to ' . $this->stubUrl(), $status, 'Allowed in settings.php, the stub on 127.0.0.1 is reached.');
  }

  /**
   * Tests that the stored token never travels to an unsaved address.
   *
   * @dataProvider storedTokenSources
   */
  #[DataProvider('storedTokenSources')]
  public function testTheStoredTokenNeverTravelsToAnUnsavedAddress(bool $in_settings_php): void {
    $this->resetStub();
    $this->config('sitebeam.settings')->set('base_url', $this->stubUrl())->set('api_token', $in_settings_php ? '' : 'dev-token')->save();
    if ($in_settings_php) {
      $this->setSetting('sitebeam_api_token', 'dev-token');
    }
    $unsaved = str_replace('127.0.0.1', 'localhost', $this->stubUrl());
    foreach (['Test connection', 'Send test email'] as $button) {
      $this->submit(['base_url' => $unsaved, 'op' => $button]);
      $errors = implode("\n", array_map('strval', $this->container->get('messenger')->deleteByType('error')));
      $this->assertStringContainsString('is only sent to the saved instance address, not to ' . $unsaved, $errors, $button);
    }

    $this->submit(['base_url' => $this->stubUrl(), 'op' => 'Test connection']);
    $status = implode("\n", array_map('strval', $this->container->get('messenger')->messagesByType('status')));
    $this->assertStringContainsString('Email: connected to ' . $this->stubUrl() . ', the token is accepted', $status, 'The saved address is tested with the stored token.');
  }

  /**
   * Data provider for testTheStoredTokenNeverTravelsToAnUnsavedAddress().
   */
  public static function storedTokenSources(): array {
    return ['settings.php' => [TRUE], 'configuration' => [FALSE]];
  }

  /**
   * Tests that send test email explains an account without email.
   */
  public function testSendTestEmailExplainsAnAccountWithoutEmail(): void {
    $this->resetStub();
    $this->setStubAccountApis(['email_api' => FALSE]);
    $this->submit(['base_url' => $this->stubUrl(), 'api_token' => 'dev-token', 'op' => 'Send test email']);
    $errors = implode("\n", array_map('strval', $this->container->get('messenger')->messagesByType('error')));
    $this->assertStringContainsString('Email sending is not enabled for this account (403 not_emailapi)', $errors);
    $this->assertStringContainsString('Ask the instance support or administrator', $errors);
    $this->assertSame([], $this->stubEmails());
  }

  /**
   * Tests that chat models come from the instance and settings save typed.
   */
  public function testChatModelsComeFromTheInstanceAndSettingsSaveTyped(): void {
    $this->resetStub();
    $this->config('sitebeam.settings')->set('base_url', $this->stubUrl())->set('api_token', 'dev-token')->save();
    $html = $this->renderForm();
    $this->assertStringContainsString('name="chat_models[textblobsentiment]"', $html);
    $this->assertStringNotContainsString('dev-token', $html);

    $errors = $this->submit([
      'base_url' => $this->stubUrl(),
      'chat_enabled' => 1,
      'chat_models' => ['mock' => 'mock', 'log' => NULL, 'nltksentiment' => 'nltksentiment'],
      'chat_setting_max_length' => '50',
      'chat_setting_temperature' => '0.7',
      'chat_setting_do_sample' => 'true',
      'chat_setting_top_k' => '',
      'chat_flood_limit' => '12',
    ]);
    $this->assertSame([], $errors);
    $chat = $this->container->get('config.storage')->read('sitebeam.settings')['chat'];
    $this->assertTrue($chat['enabled']);
    $this->assertSame(['mock', 'nltksentiment'], $chat['models']);
    $this->assertSame(50, $chat['settings']['max_length']);
    $this->assertSame(0.7, $chat['settings']['temperature']);
    $this->assertTrue($chat['settings']['do_sample']);
    $this->assertNull($chat['settings']['top_k']);
    $this->assertSame(12, $chat['flood_limit']);
  }

  /**
   * Tests that mistyped prompt settings are named; why no model is offered.
   *
   * One test for every case: each kernel test installs Drupal afresh.
   */
  public function testMistypedPromptSettingsAreNamedAndMissingModelsExplained(): void {
    $this->config('sitebeam.settings')->set('base_url', 'http://127.0.0.1:9')->set('api_token', 'dev-token')->set('chat.models', ['mock'])->save();
    $mistyped = [
      'chat_setting_temperature' => ['0', 'temperature must be a number greater than 0'],
      'chat_setting_max_length' => ['1.5', 'max_length'],
      'chat_setting_top_p' => ['warm', 'top_p must be a number'],
    ];
    foreach ($mistyped as $element => [$value, $words]) {
      $errors = $this->submit(['base_url' => 'http://127.0.0.1:9', $element => $value]);
      $this->assertStringContainsString($words, strip_tags(implode("\n", $errors)), $element);
    }
    $this->assertNull($this->container->get('config.storage')->read('sitebeam.settings')['chat']['settings']['temperature']);

    $html = $this->renderForm();
    $this->assertStringContainsString("The instance's models could not be listed", html_entity_decode($html, ENT_QUOTES));
    $this->assertStringContainsString('cannot be reached', $html);
    $this->assertStringContainsString('name="chat_models[mock]"', $html, 'The saved models stay offered.');
  }

  /**
   * Submits the form, by default with "Save configuration"; returns the errors.
   */
  private function submit(array $values): array {
    $form_state = (new FormState())->setValues($values + ['op' => 'Save configuration']);
    $this->container->get('form_builder')->submitForm(SettingsForm::class, $form_state);
    return array_map('strval', $form_state->getErrors());
  }

  /**
   * The settings form as HTML.
   */
  private function renderForm(): string {
    $form = $this->container->get('form_builder')->getForm(SettingsForm::class);
    return (string) $this->container->get('renderer')->renderInIsolation($form);
  }

}
