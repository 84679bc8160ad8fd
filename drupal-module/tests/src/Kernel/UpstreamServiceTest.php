<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Form\FormState;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Api\InstanceHost;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Controller\ChatConsoleController;
use Drupal\sitebeam\Form\SettingsForm;
use Drupal\Tests\sitebeam\Traits\SitebeamLogTrait;
use PHPUnit\Framework\Attributes\Group;

/**
 * The module against the real service, served by tests/drupal/upstream.sh.
 *
 * SITEBEAM_UPSTREAM_URL, _TOKEN, _TOKEN_WITHOUT_AI and _RELEASE name it;
 * skipped without them.
 *
 * @group sitebeam
 * @group sitebeam_upstream
 */
#[Group('sitebeam')]
#[Group('sitebeam_upstream')]
final class UpstreamServiceTest extends KernelTestBase {

  use SitebeamLogTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'dblog', 'sitebeam', 'sitebeam_test'];

  /**
   * The release with the AI routes; the other answers 405 on each of them.
   */
  private const AI_RELEASE = '3.15.24';

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    // The stub (the real service too, in these tests) listens on 127.0.0.1.
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, TRUE);
    if ((string) getenv('SITEBEAM_UPSTREAM_URL') === '') {
      $this->markTestSkipped('No real service: tests/drupal/upstream.sh serves it (SITEBEAM_UPSTREAM_URL is not set).');
    }
    unset($GLOBALS['config']['system.mail']['interface']['default']);
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
    $this->installSchema('dblog', ['watchdog']);
    $this->config('system.site')->set('mail', 'site@example.com')->set('name', 'Upstream Site')->save();
    $this->config('sitebeam.settings')
      ->set('base_url', rtrim((string) getenv('SITEBEAM_UPSTREAM_URL'), '/'))
      ->set('api_token', (string) getenv('SITEBEAM_UPSTREAM_TOKEN'))
      ->save();
  }

  /**
   * Tests that Test connection proves the token and email, and says AI apart.
   */
  public function testTestConnection(): void {
    $messages = $this->testConnection((string) getenv('SITEBEAM_UPSTREAM_TOKEN'));
    $this->assertStringContainsString('the token is accepted and email sending is enabled for the account (nothing was sent)', $messages['status'] ?? '');
    $this->assertArrayNotHasKey('error', $messages);
    if ($this->hasAi()) {
      $this->assertMatchesRegularExpression('/AI: [1-9]\d* models available for the chat\./', $messages['status']);
    }
    else {
      $this->assertStringContainsString('has no AI API (405 cwai_not_implemened)', $messages['warning'] ?? '');
    }
  }

  /**
   * Tests a wrong token, an unconfirmed account and an account without AI.
   */
  public function testWrongTokenAndAccountWithoutAi(): void {
    $messages = $this->testConnection('not-a-token');
    $this->assertStringContainsString('refused the token (401): the token is wrong', $messages['error'] ?? '');

    $messages = $this->testConnection((string) getenv('SITEBEAM_UPSTREAM_TOKEN_UNCONFIRMED'));
    $this->assertStringContainsString('the account is not confirmed yet (403 account_not_confirmed)', $messages['error'] ?? '');
    $this->assertSame(['error'], array_keys($messages), 'The AI API of an unconfirmed account is not asked.');

    $messages = $this->testConnection((string) getenv('SITEBEAM_UPSTREAM_TOKEN_WITHOUT_AI'));
    $this->assertStringContainsString('the token is accepted and email sending is enabled', $messages['status'] ?? '');
    $this->assertStringContainsString($this->hasAi() ? 'does not offer the AI API to this account (403 not_cwaiapi)' : '(405 cwai_not_implemened)', $messages['warning'] ?? '');
  }

  /**
   * Tests site mail: sent without an id, a special-use address never sent.
   */
  public function testSiteMail(): void {
    $this->config('system.mail')->set('interface.default', 'sitebeam_mail')->save();
    $mail = $this->container->get('plugin.manager.mail');
    $params = ['subject' => 'Hi', 'body' => ['x']];
    $this->assertTrue($mail->mail('sitebeam_test', 'probe', 'ann@example.com', 'en', $params)['result']);
    $this->assertFalse($mail->mail('sitebeam_test', 'probe', 'ana@shop.local', 'en', $params)['result']);
    $this->assertStringContainsString('The To header holds "ana@shop.local", refused by the API: .local is a special-use domain.', $this->sitebeamLog());
  }

  /**
   * Tests that the service's own refusal of an address names the field.
   */
  public function testRefusedAddressNamesTheField(): void {
    $payload = ['to' => 'ana@shop.test', 'subject' => 'Never sent'];
    $result = $this->container->get('sitebeam.api_client')->sendEmail($payload);
    $this->assertSame(ApiResult::INVALID_FIELD, $result->diagnosis());
    $this->assertArrayHasKey('to', $result->refusedFields());
  }

  /**
   * Tests that the console's load ends: the service only says it started.
   */
  public function testConsoleLoad(): void {
    $result = $this->container->get('sitebeam.api_client')->loadModel('gpt2');
    if (!$this->hasAi()) {
      // 3.16.15 has no load route at all: FastAPI's own 404.
      $this->assertSame('HTTP 404: Not Found', $result->logSummary());
      return;
    }
    $this->assertTrue($result->isSuccess(), $result->logSummary());
    $this->assertSame('started', ChatConsoleController::state($result));
  }

  /**
   * Presses Test connection with the token; the messages by type.
   */
  private function testConnection(string $token): array {
    $this->config('sitebeam.settings')->set('api_token', $token)->save();
    $form_state = (new FormState())->setValues([
      'base_url' => $this->config('sitebeam.settings')->get('base_url'),
      'op' => 'Test connection',
    ]);
    $this->container->get('form_builder')->submitForm(SettingsForm::class, $form_state);
    return array_map(
      static fn (array $messages): string => implode("\n", array_map('strval', $messages)),
      $this->container->get('messenger')->deleteAll(),
    );
  }

  /**
   * True for the release that has the AI routes.
   */
  private function hasAi(): bool {
    return getenv('SITEBEAM_UPSTREAM_RELEASE') === self::AI_RELEASE;
  }

}
