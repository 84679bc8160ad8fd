<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\Component\Render\MarkupInterface;
use Drupal\sitebeam\Mail\BodyFormatter;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Mail\BodyFormatter
 * @group sitebeam
 */
#[CoversClass(BodyFormatter::class)]
#[Group('sitebeam')]
final class BodyFormatterTest extends TestCase {

  /**
   * Tests that plain text is escaped with line breaks and links.
   */
  public function testPlainTextIsEscapedWithLineBreaksAndLinks(): void {
    $html = BodyFormatter::toHtml(["Hello <b>Ann</b> & co,\nreset: https://site.test/user/reset/1?a=1&b=2.", 'Bye'], FALSE);
    $this->assertSame(
      "<p>Hello &lt;b&gt;Ann&lt;/b&gt; &amp; co,<br>\nreset: <a href=\"https://site.test/user/reset/1?a=1&amp;b=2\">https://site.test/user/reset/1?a=1&amp;b=2</a>.</p>\n<p>Bye</p>",
      $html,
    );
  }

  /**
   * Tests that html message is kept as written.
   */
  public function testHtmlMessageIsKeptAsWritten(): void {
    $this->assertSame("<h1>Hi</h1>\n<p>x</p>", BodyFormatter::toHtml(['<h1>Hi</h1>', '<p>x</p>'], TRUE));
  }

  /**
   * Tests that markup parts are html even in plain messages.
   */
  public function testMarkupPartsAreHtmlEvenInPlainMessages(): void {
    $markup = new class('<em>safe</em>') implements MarkupInterface {

      public function __construct(private string $value) {}

      /**
       * {@inheritdoc}
       */
      public function __toString(): string {
        return $this->value;
      }

      /**
       * {@inheritdoc}
       */
      public function jsonSerialize(): string {
        return $this->value;
      }

    };
    $this->assertSame("<em>safe</em>\n<p>a &lt; b</p>", BodyFormatter::toHtml([$markup, 'a < b'], FALSE));
  }

  /**
   * Tests that content type header decides whether the body is html.
   */
  public function testContentTypeHeaderDecidesWhetherTheBodyIsHtml(): void {
    $this->assertTrue(BodyFormatter::isHtml(['content-type' => 'text/html; charset=UTF-8']));
    $this->assertFalse(BodyFormatter::isHtml(['Content-Type' => 'text/plain; charset=UTF-8; format=flowed']));
    $this->assertFalse(BodyFormatter::isHtml([]));
  }

  /**
   * Tests that escape covers quotes for attributes.
   */
  public function testEscapeCoversQuotesForAttributes(): void {
    $this->assertSame('&quot;x&quot; &apos;y&apos; &lt;script&gt;', BodyFormatter::escape('"x" \'y\' <script>'));
  }

}
