<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Chat\PromptSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\Tests\SchemaCheckTestTrait;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;

/**
 * The sitebeam.settings schema: complete, and refusing what must be refused.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class SettingsSchemaTest extends KernelTestBase {

  use SchemaCheckTestTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['user', 'sitebeam']);
  }

  /**
   * Tests that defaults match the schema and validate.
   */
  public function testDefaultsMatchTheSchemaAndValidate(): void {
    $this->assertConfigSchemaByName('sitebeam.settings');
    $this->assertSame([], $this->violations([]));
    $this->assertSame(['/admin*', '/batch', '/node/add*', '/user/*/*'], $this->config('sitebeam.settings')->get('visibility.paths'));
    $this->assertFalse($this->config('sitebeam.settings')->get('chat.enabled'));
    $this->assertSame(Contract::CHAT_RATE_LIMIT_COUNT, $this->config('sitebeam.settings')->get('chat.flood_limit'));
    $this->assertSame(Contract::CHAT_RATE_LIMIT_WINDOW_S, $this->config('sitebeam.settings')->get('chat.flood_window'));
  }

  /**
   * Tests that the update moves a saved num_beams to the service's num_beans.
   */
  public function testUpdateRenamesPromptSettingsToTheServiceNames(): void {
    $storage = $this->container->get('config.storage');
    $saved = $storage->read('sitebeam.settings');
    unset($saved['chat']['settings']['num_beans']);
    $saved['chat']['settings'] = ['num_beams' => 4] + $saved['chat']['settings'];
    $storage->write('sitebeam.settings', $saved);
    $this->container->get('config.factory')->reset('sitebeam.settings');

    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    sitebeam_update_10003();

    $settings = $this->config('sitebeam.settings')->get('chat.settings');
    $this->assertSame(4, $settings['num_beans']);
    $this->assertArrayNotHasKey('num_beams', $settings);
    $this->assertSame(array_keys(PromptSettings::types()), array_keys($settings));
    $this->assertSame([], $this->violations([]));
  }

  /**
   * Tests that typed chat values pass and mistyped ones are named.
   *
   * One test for every case: each kernel test installs Drupal afresh.
   */
  public function testChatValuesAreTypedAndMistypedOnesNamed(): void {
    $chat = [
      'enabled' => TRUE,
      'models' => ['mock', 'nltksentiment'],
      'settings' => ['max_length' => 50, 'top_p' => 0.9, 'temperature' => 0.7, 'early_stopping' => FALSE],
    ];
    $this->assertSame([], $this->violations(['chat' => $chat]));
    $mistyped = [
      'chat.models.1' => [['models' => ['mock', 'gpt 2']], 'model identifier'],
      'chat.settings.max_length' => [['settings' => ['max_length' => 0]], 'max_length must be a whole number'],
      'chat.settings.temperature' => [['settings' => ['temperature' => 0.0]], 'temperature must be a number greater'],
      'chat.settings.do_sample' => [['settings' => ['do_sample' => 'yes']], 'do_sample must be true or false'],
      'chat.flood_limit' => [['flood_limit' => 0], '1'],
    ];
    foreach ($mistyped as $path => [$change, $words]) {
      $violations = $this->violations(['chat' => $change]);
      $this->assertArrayHasKey($path, $violations, 'Violations: ' . json_encode($violations));
      $this->assertStringContainsString($words, $violations[$path]);
    }
  }

  /**
   * Tests the kept query parameters: names or "*", and the update adding them.
   */
  public function testKeptQueryParametersAreNamesOrAllAndTheUpdateAddsThem(): void {
    foreach (['', '*', 'ref,lang', 'utm_*,a[],ref,*'] as $value) {
      $this->assertSame([], $this->violations(['tracker' => ['keep_query' => $value]]), $value);
    }
    foreach (['ref lang', 'token=1', 'b%5B%5D', "ref\nlang"] as $value) {
      $violations = $this->violations(['tracker' => ['keep_query' => $value]]);
      $this->assertStringContainsString('parameter names separated by commas', $violations['tracker.keep_query'] ?? '', $value);
    }

    $storage = $this->container->get('config.storage');
    $saved = $storage->read('sitebeam.settings');
    unset($saved['tracker']['keep_query']);
    $storage->write('sitebeam.settings', $saved);
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    sitebeam_update_10006();
    $this->assertSame('', $this->config('sitebeam.settings')->get('tracker.keep_query'));
    $this->assertSame([], $this->violations([]));
  }

  /**
   * Tests the daily chat limit: 500 by default, a whole number, 0 for none.
   */
  public function testDailyChatLimitIsFiveHundredByDefaultAndWholeNumber(): void {
    $this->assertSame(500, $this->config('sitebeam.settings')->get('chat.daily_limit'));
    $this->assertSame([], $this->violations(['chat' => ['daily_limit' => 0]]));
    $this->assertSame([], $this->violations(['chat' => ['daily_limit' => 20000]]));
    $this->assertArrayHasKey('chat.daily_limit', $this->violations(['chat' => ['daily_limit' => -1]]));
    $this->assertArrayHasKey('chat.daily_limit', $this->violations(['chat' => ['daily_limit' => NULL]]));
    $this->assertArrayHasKey('chat.daily_limit', $this->violations(['chat' => ['daily_limit' => 'many']]));
  }

  /**
   * Tests the outbox settings and update 10008, which adds them and its table.
   */
  public function testOutboxSettingsAndTheirUpdate(): void {
    $this->assertSame([
      'lifetime' => 259200,
      'max_mails' => 1000,
      'max_bytes' => 52428800,
      'contact_share' => 50,
      'retention_days' => 30,
    ], $this->config('sitebeam.settings')->get('mail.outbox'));
    $this->assertArrayHasKey('mail.outbox.contact_share', $this->violations(['mail' => ['outbox' => ['contact_share' => 101]]]));
    $this->assertArrayHasKey('mail.outbox.retention_days', $this->violations(['mail' => ['outbox' => ['retention_days' => 0]]]));
    $this->assertArrayHasKey('mail.outbox.lifetime', $this->violations(['mail' => ['outbox' => ['lifetime' => 60]]]));
    $this->assertArrayHasKey('mail.outbox.max_mails', $this->violations(['mail' => ['outbox' => ['max_mails' => 0]]]));
    $this->assertArrayHasKey('mail.outbox.max_bytes', $this->violations(['mail' => ['outbox' => ['max_bytes' => 1000]]]));

    $storage = $this->container->get('config.storage');
    $saved = $storage->read('sitebeam.settings');
    unset($saved['mail']['outbox']);
    $storage->write('sitebeam.settings', $saved);
    $this->container->get('config.factory')->reset('sitebeam.settings');
    $schema = $this->container->get('database')->schema();
    $this->assertFalse($schema->tableExists(Outbox::TABLE));
    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    sitebeam_update_10008();
    sitebeam_update_10009();
    $this->assertSame(259200, $this->config('sitebeam.settings')->get('mail.outbox.lifetime'));
    $this->assertSame(50, $this->config('sitebeam.settings')->get('mail.outbox.contact_share'));
    $this->assertTrue($schema->tableExists(Outbox::TABLE));
    $this->assertSame([], $this->violations([]));
  }

  /**
   * Tests that local and https instances are accepted.
   */
  public function testLocalAndHttpsInstancesAreAccepted(): void {
    $this->assertSame([], $this->violations(['base_url' => 'http://127.0.0.1:4010']));
    $this->assertSame([], $this->violations(['base_url' => 'https://api.example.com/']));
  }

  /**
   * Tests that bad values are refused with their path.
   *
   * @dataProvider badValues
   */
  #[DataProvider('badValues')]
  public function testBadValuesAreRefusedWithTheirPath(array $change, string $path, string $words): void {
    $violations = $this->violations($change);
    $this->assertArrayHasKey($path, $violations, 'Violations: ' . json_encode($violations));
    $this->assertStringContainsString($words, $violations[$path]);
  }

  /**
   * Data provider for testBadValuesAreRefusedWithTheirPath().
   */
  public static function badValues(): array {
    return [
      'token sent in clear' => [['base_url' => 'http://api.example.com'], 'base_url', 'must use https'],
      'version path' => [['base_url' => 'https://api.example.com/v1'], 'base_url', 'without a path'],
      'not a URL' => [['base_url' => 'api.example.com'], 'base_url', 'not a valid URL'],
      'recipient' => [['contact' => ['recipient' => 'owner at example']], 'contact.recipient', 'not a valid email'],
      'path without slash' => [['visibility' => ['paths' => ['admin*']]], 'visibility.paths.0', 'starts with a slash'],
      'unknown role' => [['visibility' => ['roles' => ['ghost']]], 'visibility.roles.0', 'ghost'],
      'website too long' => [['website' => str_repeat('w', 256)], 'website', '255'],
      'website on two lines' => [['website' => "a\nb"], 'website', 'single line'],
      'flood limit' => [['contact' => ['flood_limit' => 0]], 'contact.flood_limit', '1'],
    ];
  }

  /**
   * Validates the defaults with a change, keyed by property path.
   */
  private function violations(array $change): array {
    $data = array_replace_recursive($this->config('sitebeam.settings')->getRawData(), $change);
    if (isset($change['visibility']['paths'])) {
      $data['visibility']['paths'] = $change['visibility']['paths'];
    }
    $typed = $this->container->get('config.typed')->createFromNameAndData('sitebeam.settings', $data);
    $messages = [];
    foreach ($typed->validate() as $violation) {
      $path = $violation->getPropertyPath();
      $messages[$path] = trim(($messages[$path] ?? '') . ' ' . strip_tags((string) $violation->getMessage()));
    }
    return $messages;
  }

}
