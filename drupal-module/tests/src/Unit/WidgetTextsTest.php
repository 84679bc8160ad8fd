<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Text\WidgetTexts;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * The module lists every widget text, in the widget's own English.
 *
 * Read from the sources (no Drupal core here): the keys of the widgets'
 * English tables in snippet/src and the literal strings WidgetTexts passes
 * to t(), its "@" placeholders read as the widget's "%". An untranslated
 * string is left to the widget only when both Englishes agree.
 *
 * @coversDefaultClass \Drupal\sitebeam\Text\WidgetTexts
 * @group sitebeam
 */
#[CoversClass(WidgetTexts::class)]
#[Group('sitebeam')]
final class WidgetTextsTest extends TestCase {

  /**
   * Tests that the contact form's list matches the form widget's texts.
   */
  public function testContactFormListsTheFormWidgetTexts(): void {
    $this->assertSame($this->widgetEnglish('form/texts.ts'), $this->moduleEnglish('contactForm'));
  }

  /**
   * Tests that the chat's list matches the chat widget's texts.
   */
  public function testChatListsTheChatWidgetTexts(): void {
    $this->assertSame($this->widgetEnglish('chat/texts.ts'), $this->moduleEnglish('chat'));
  }

  /**
   * The `const en = {…}` table of a widget's texts module, in order.
   *
   * @return array<string, string>
   *   English text by key.
   */
  private function widgetEnglish(string $module): array {
    $file = dirname(__DIR__, 4) . '/snippet/src/' . $module;
    if (!is_file($file)) {
      $this->markTestSkipped("$file is not here: the module was copied out of the Sitebeam repository");
    }
    $this->assertSame(1, preg_match('/^const en = \{\n(.*?)^\};/ms', (string) file_get_contents($file), $table), "$file has a const en table");
    preg_match_all("/^  (\\w+): '((?:[^'\\\\]|\\\\.)*)',\$/m", $table[1], $entries, PREG_SET_ORDER);
    $this->assertCount(substr_count($table[1], "\n"), $entries, "every line of $module's table is one key: 'text'");
    return array_column(array_map(static fn (array $entry): array => [$entry[1], stripslashes($entry[2])], $entries), 1, 0);
  }

  /**
   * The texts a method of WidgetTexts lists, placeholders given back as "%".
   *
   * @return array<string, string>
   *   English text by key.
   */
  private function moduleEnglish(string $method): array {
    $source = (string) file_get_contents(dirname(__DIR__, 3) . '/src/Text/WidgetTexts.php');
    $this->assertSame(1, preg_match('/function ' . $method . '\(\): array \{\n    return \[\n(.*?)^    \];/ms', $source, $list), "WidgetTexts::$method() returns a list");
    $pattern = "/^      '(\\w+)' => \\\$this->t\\('((?:[^'\\\\]|\\\\.)*)'(?:, \\['(@\\w+)' => '%'\\])?\\),\$/m";
    preg_match_all($pattern, $list[1], $entries, PREG_SET_ORDER);
    $this->assertCount(substr_count($list[1], "\n"), $entries, "every line of WidgetTexts::$method() is one 'key' => \$this->t('literal')");
    $english = [];
    foreach ($entries as $entry) {
      $text = stripslashes($entry[2]);
      $english[$entry[1]] = isset($entry[3]) ? str_replace($entry[3], '%', $text) : $text;
    }
    return $english;
  }

}
