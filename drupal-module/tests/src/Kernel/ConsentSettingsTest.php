<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Form\FormState;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Form\SettingsForm;
use PHPUnit\Framework\Attributes\Group;

/**
 * The owner's consent checkboxes: schema, update, override, form, blocks.
 *
 * One test method per concern: each kernel test installs Drupal afresh.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class ConsentSettingsTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  private const OFF = ['enabled' => FALSE, 'label' => '', 'policy_url' => ''];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'user', 'sitebeam']);
    $this->installEntitySchema('user');
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
    $this->config('sitebeam.settings')->set('chat.enabled', TRUE)->set('chat.models', ['mock'])->save();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests that consent is off by default and the update adds it, off.
   */
  public function testOffByDefaultAndAddedOffByTheUpdate(): void {
    $consent = $this->container->get('sitebeam.consent_settings');
    $this->assertNull($consent->contact());
    $this->assertNull($consent->chat());
    $this->assertSame(self::OFF, $this->config('sitebeam.settings')->get('contact.consent'));

    $storage = $this->container->get('config.storage');
    $saved = $storage->read('sitebeam.settings');
    unset($saved['langcode'], $saved['contact']['consent'], $saved['chat']['consent']);
    $storage->write('sitebeam.settings', $saved);
    $this->container->get('config.factory')->reset('sitebeam.settings');

    $this->container->get('module_handler')->loadInclude('sitebeam', 'install');
    sitebeam_update_10005();
    $this->assertSame(self::OFF, $this->config('sitebeam.settings')->get('contact.consent'));
    $this->assertSame(self::OFF, $this->config('sitebeam.settings')->get('chat.consent'));
    $this->assertSame('en', $this->config('sitebeam.settings')->get('langcode'));
    $this->assertSame([], $this->violations('contact', []));
  }

  /**
   * Tests that the schema names a missing text and an unsafe link.
   */
  public function testSchemaNamesMissingTextAndUnsafeLink(): void {
    $asked = ['enabled' => TRUE, 'label' => 'I agree'];
    $this->assertSame([], $this->violations('contact', $asked + ['policy_url' => '/privacy']));
    $this->assertSame([], $this->violations('chat', $asked + ['policy_url' => 'https://example.com/privacy']));
    // A text kept while consent is off is fine: the owner may turn it back on.
    $this->assertSame([], $this->violations('chat', ['enabled' => FALSE, 'label' => 'I agree']));

    $refused = [
      'contact.consent.label' => ['contact', ['enabled' => TRUE, 'label' => ' '], 'Enter the text visitors agree to'],
      'chat.consent.label' => ['chat', ['label' => "I\nagree"], 'single line'],
      'chat.consent.policy_url' => ['chat', ['policy_url' => 'http://example.com/privacy'], 'must start with https://'],
      'contact.consent.policy_url' => ['contact', ['policy_url' => '//evil.example/p'], 'must start with https://'],
    ];
    foreach ($refused as $path => [$part, $change, $words]) {
      $violations = $this->violations($part, $change);
      $this->assertArrayHasKey($path, $violations, 'Violations: ' . json_encode($violations));
      $this->assertStringContainsString($words, $violations[$path]);
    }
  }

  /**
   * Tests that settings.php turns the checkbox on for the block and the route.
   */
  public function testSettingsPhpOverrideReachesTheBlockAndTheRoute(): void {
    $GLOBALS['config']['sitebeam.settings']['contact']['consent'] = [
      'enabled' => TRUE,
      'label' => 'Keep <my> message',
      'policy_url' => '/privacy',
    ];
    $this->container->get('config.factory')->reset('sitebeam.settings');

    $checkbox = $this->container->get('sitebeam.consent_settings')->contact();
    $this->assertSame('Keep <my> message', $checkbox?->label);
    $this->assertNull($this->container->get('sitebeam.consent_settings')->chat());
    $this->assertStringNotContainsString('name="consent"', $this->renderBlock('sitebeam_chat')[0]);

    [$html, $build] = $this->renderBlock('sitebeam_contact_form');
    $this->assertMatchesRegularExpression('/<input id="[^"]+-consent" name="consent" type="checkbox" value="yes" required class="form-checkbox">/', $html);
    $this->assertStringContainsString('Keep &lt;my&gt; message</label>', $html);
    $this->assertStringContainsString('<a href="/privacy" target="_blank" rel="noopener noreferrer">', $html);
    $this->assertContains('config:sitebeam.settings', $build['#cache']['tags']);
    $this->assertContains('url.query_args:sent', $build['#cache']['contexts']);

    // A path becomes an absolute address for the chat widget's consent-url.
    $GLOBALS['config']['sitebeam.settings']['chat']['consent'] = $GLOBALS['config']['sitebeam.settings']['contact']['consent'];
    $this->container->get('config.factory')->reset('sitebeam.settings');
    [$html, $build] = $this->renderBlock('sitebeam_chat');
    $this->assertMatchesRegularExpression('#<sitebeam-chat [^>]*consent-label="Keep &lt;my&gt; message" consent-url="http://localhost/privacy"#', $html);
    $this->assertContains('url.site', $build['#cache']['contexts']);
    $this->assertStringContainsString('<a href="/privacy" target="_blank"', $html);
  }

  /**
   * Tests that the chat block shows the chat's checkbox with its https link.
   */
  public function testChatBlockShowsItsCheckbox(): void {
    $this->config('sitebeam.settings')->set('chat.consent', [
      'enabled' => TRUE,
      'label' => 'My words may be kept',
      'policy_url' => 'https://example.com/privacy?x=1&y=2',
    ])->save();
    [$html, $build] = $this->renderBlock('sitebeam_chat');
    $this->assertStringContainsString('name="consent" type="checkbox" value="yes" required', $html);
    $this->assertStringContainsString('My words may be kept</label>', $html);
    $this->assertStringContainsString('href="https://example.com/privacy?x=1&amp;y=2"', $html);
    // The widget draws its own box from these attributes.
    $this->assertStringContainsString('<sitebeam-chat action="/sitebeam/chat" consent-label="My words may be kept" consent-url="https://example.com/privacy?x=1&amp;y=2"', $html);
    $this->assertContains('config:sitebeam.settings', $build['#cache']['tags']);
    $this->assertStringNotContainsString('name="consent"', $this->renderBlock('sitebeam_contact_form')[0]);
  }

  /**
   * Tests that the form refuses consent without a text and saves it with one.
   */
  public function testFormRefusesConsentWithoutTextAndSavesItWithOne(): void {
    $errors = $this->submit(['contact_consent_enabled' => 1, 'contact_consent_label' => '']);
    $this->assertStringContainsString('Enter the text visitors agree to', $errors['contact_consent_label'] ?? '', json_encode($errors));
    $this->assertFalse($this->container->get('config.storage')->read('sitebeam.settings')['contact']['consent']['enabled']);

    $errors = $this->submit([
      'chat_consent_enabled' => 1,
      'chat_consent_label' => 'I agree',
      'chat_consent_policy_url' => 'privacy',
    ]);
    $this->assertStringContainsString('must start with https://', $errors['chat_consent_policy_url'] ?? '', json_encode($errors));

    $this->assertSame([], $this->submit([
      'contact_consent_enabled' => 1,
      'contact_consent_label' => 'I agree that my message is kept',
      'contact_consent_policy_url' => 'https://example.com/privacy',
    ]));
    $this->assertSame(
      ['enabled' => TRUE, 'label' => 'I agree that my message is kept', 'policy_url' => 'https://example.com/privacy'],
      $this->container->get('config.storage')->read('sitebeam.settings')['contact']['consent'],
    );

    $form = $this->container->get('form_builder')->getForm(SettingsForm::class);
    $label = $form['contact']['contact_consent']['contact_consent_label'];
    $this->assertSame(['checked' => TRUE], $label['#states']['visible'][':input[name="contact_consent_enabled"]']);
    $this->assertSame($label['#states']['visible'], $label['#states']['required']);
  }

  /**
   * Submits the settings form; returns its errors.
   *
   * As a new request would, forgets the refused values ConfigFormBase wrote
   * into the editable config object while validating.
   */
  private function submit(array $values): array {
    $form_state = (new FormState())->setValues($values + ['op' => 'Save configuration']);
    $this->container->get('form_builder')->submitForm(SettingsForm::class, $form_state);
    $this->container->get('config.factory')->reset('sitebeam.settings');
    return array_map('strval', $form_state->getErrors());
  }

  /**
   * The HTML and the rendered build of a block plugin.
   */
  private function renderBlock(string $plugin): array {
    $build = $this->container->get('plugin.manager.block')->createInstance($plugin, [])->build();
    $html = (string) $this->container->get('renderer')->renderRoot($build);
    return [$html, $build];
  }

  /**
   * Validates the saved settings with a consent change, keyed by path.
   *
   * @param string $part
   *   The part of the settings: 'contact' or 'chat'.
   * @param array $change
   *   Consent keys to change.
   */
  private function violations(string $part, array $change): array {
    $data = $this->config('sitebeam.settings')->getRawData();
    $data[$part]['consent'] = $change + $data[$part]['consent'];
    $typed = $this->container->get('config.typed')->createFromNameAndData('sitebeam.settings', $data);
    $messages = [];
    foreach ($typed->validate() as $violation) {
      $messages[$violation->getPropertyPath()] = strip_tags((string) $violation->getMessage());
    }
    return $messages;
  }

}
