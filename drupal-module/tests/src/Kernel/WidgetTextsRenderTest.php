<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\block\Entity\Block;
use Drupal\Core\Site\Settings;
use Drupal\Core\StringTranslation\Translator\CustomStrings;
use Drupal\KernelTests\KernelTestBase;
use PHPUnit\Framework\Attributes\Group;

/**
 * The blocks hand the widgets their texts in the site's language.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class WidgetTextsRenderTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'block', 'sitebeam'];

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installConfig(['system', 'sitebeam']);
    $this->config('sitebeam.settings')->set('chat.enabled', TRUE)->set('chat.models', ['mock'])->save();
    $this->container->get('router.builder')->rebuild();
  }

  /**
   * Tests that texts still in English are left to the widget's own table.
   */
  public function testUntranslatedTextsAreLeftToTheWidget(): void {
    $this->assertStringNotContainsString('data-text-', $this->renderBlock('sitebeam_contact_form'));
    $this->assertStringNotContainsString('data-text-', $this->renderBlock('sitebeam_chat'));
  }

  /**
   * Tests that a translated text reaches its attribute escaped, "%" kept.
   */
  public function testTranslatedTextsReachTheirAttributesEscaped(): void {
    $this->translate([
      'Sending…' => 'Envoi <b>"vite"</b> & bien…',
      'Please fill in “@label”.' => 'Remplissez « @label », s’il vous plaît.',
      'Score: @score' => 'Note : @score',
    ]);
    $form = $this->renderBlock('sitebeam_contact_form');
    $this->assertMatchesRegularExpression('/<form data-sitebeam-form [^>]*data-text-sending="Envoi &lt;b&gt;&quot;vite&quot;&lt;\/b&gt; &amp; bien…"/', $form);
    $this->assertStringContainsString(' data-text-required="Remplissez « % », s’il vous plaît."', $form);
    $this->assertSame(2, substr_count($form, 'data-text-'), 'Only the translated texts.');

    $chat = $this->renderBlock('sitebeam_chat');
    $this->assertMatchesRegularExpression('/<sitebeam-chat [^>]*data-text-score="Note : %"/', $chat);
    $this->assertSame(1, substr_count($chat, 'data-text-'));
  }

  /**
   * Tests that a placed block's cached markup varies by interface language.
   *
   * Drupal adds the context to every cached render array by default
   * (renderer.config required_cache_contexts): the blocks rely on it, as
   * core's own blocks do for their t() strings.
   */
  public function testPlacedBlocksVaryByInterfaceLanguage(): void {
    $this->container->get('theme_installer')->install(['stark']);
    foreach (['sitebeam_contact_form', 'sitebeam_chat'] as $plugin) {
      $block = Block::create(['id' => $plugin, 'theme' => 'stark', 'region' => 'content', 'plugin' => $plugin]);
      $block->save();
      $build = $this->container->get('entity_type.manager')->getViewBuilder('block')->view($block);
      $this->container->get('renderer')->renderRoot($build);
      $this->assertContains('languages:language_interface', $build['#cache']['contexts'], $plugin);
    }
  }

  /**
   * Adds string translations into the current (English) interface language.
   */
  private function translate(array $strings): void {
    $this->setSetting('locale_custom_strings_en', ['' => $strings]);
    $this->container->get('string_translation')->addTranslator(new CustomStrings(Settings::getInstance()), 100);
  }

  /**
   * The HTML of a block plugin's build.
   */
  private function renderBlock(string $plugin): string {
    $build = $this->container->get('plugin.manager.block')->createInstance($plugin, [])->build();
    return (string) $this->container->get('renderer')->renderRoot($build);
  }

}
