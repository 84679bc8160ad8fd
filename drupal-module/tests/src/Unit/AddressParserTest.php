<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Mail\AddressParser;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Mail\AddressParser
 * @group sitebeam
 */
#[CoversClass(AddressParser::class)]
#[Group('sitebeam')]
final class AddressParserTest extends TestCase {

  /**
   * Tests that plain display name and quoted comma in one header.
   */
  public function testPlainDisplayNameAndQuotedCommaInOneHeader(): void {
    $list = AddressParser::parseList('a@example.test, Bea Blue <b@example.test>, "Doe, Carl" <c@example.test>', 'To');
    $this->assertSame(['a@example.test', 'b@example.test', 'c@example.test'], array_map(fn ($a) => $a->email, $list));
    $this->assertSame(['', 'Bea Blue', 'Doe, Carl'], array_map(fn ($a) => $a->name, $list));
  }

  /**
   * Tests that each address once whatever its case.
   */
  public function testEachAddressOnceWhateverItsCase(): void {
    $list = AddressParser::parseList('a@example.test, A@Example.test, Other <a@example.test>', 'To');
    $this->assertCount(1, $list);
  }

  /**
   * Tests that mime encoded display name is decoded.
   */
  public function testMimeEncodedDisplayNameIsDecoded(): void {
    $list = AddressParser::parseList('=?UTF-8?B?w4lsw6huZQ==?= <e@example.test>', 'From');
    $this->assertSame('Élène', $list[0]->name);
  }

  /**
   * Tests that empty header has no address.
   */
  public function testEmptyHeaderHasNoAddress(): void {
    $this->assertSame([], AddressParser::parseList('  ', 'Cc'));
  }

  /**
   * Tests that line breaks are refused.
   *
   * @dataProvider injectionProvider
   */
  #[DataProvider('injectionProvider')]
  public function testLineBreaksAreRefused(string $value): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('Bcc header contains a line break');
    AddressParser::parseList($value, 'Bcc');
  }

  /**
   * Data provider for testLineBreaksAreRefused().
   */
  public static function injectionProvider(): array {
    return [
      'LF' => ["a@example.test\nBcc: victim@example.test"],
      'CR' => ["a@example.test\rX: y"],
      'CRLF in name' => ["Evil\r\n <a@example.test>"],
    ];
  }

  /**
   * Tests that control characters in the decoded name are refused.
   *
   * @dataProvider encodedControlCharacterProvider
   */
  #[DataProvider('encodedControlCharacterProvider')]
  public function testControlCharactersInTheDecodedNameAreRefused(string $name): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('From header holds a control character in its display name');
    AddressParser::parseList('=?UTF-8?B?' . base64_encode($name) . '?= <site@example.test>', 'From');
  }

  /**
   * Data provider for testControlCharactersInTheDecodedNameAreRefused().
   */
  public static function encodedControlCharacterProvider(): array {
    return [
      'CRLF' => ["Zo\u{EB}\r\nBcc: victim@evil.test"],
      'LF' => ["Zo\u{EB}\nBcc: victim@evil.test"],
      'NUL' => ["Zo\u{EB}\0"],
      'NEL' => ["Zo\u{EB}\u{85}x"],
      'line separator' => ["Zo\u{EB}\u{2028}x"],
    ];
  }

  /**
   * Tests that invalid address names the header.
   */
  public function testInvalidAddressNamesTheHeader(): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('Reply-To header holds an invalid address: "not-an-address"');
    AddressParser::parseList('not-an-address', 'Reply-To');
  }

  /**
   * Tests that valid email.
   */
  public function testValidEmail(): void {
    $this->assertTrue(AddressParser::isValidEmail('jo.smith+tag@example.co.uk'));
    $this->assertFalse(AddressParser::isValidEmail('two@example.test three@example.test'));
    $this->assertFalse(AddressParser::isValidEmail('a@example.test,b@example.test'));
    $this->assertFalse(AddressParser::isValidEmail(''));
  }

}
