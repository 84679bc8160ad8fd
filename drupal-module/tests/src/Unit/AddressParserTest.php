<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Mail\AddressParser;
use Drupal\sitebeam\Mail\InvalidAddressException;
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
    $list = AddressParser::parseList('a@example.com, Bea Blue <b@example.com>, "Doe, Carl" <c@example.com>', 'To');
    $this->assertSame(['a@example.com', 'b@example.com', 'c@example.com'], array_map(fn ($a) => $a->email, $list));
    $this->assertSame(['', 'Bea Blue', 'Doe, Carl'], array_map(fn ($a) => $a->name, $list));
  }

  /**
   * Tests that each address once whatever its case.
   */
  public function testEachAddressOnceWhateverItsCase(): void {
    $list = AddressParser::parseList('a@example.com, A@Example.com, Other <a@example.com>', 'To');
    $this->assertCount(1, $list);
  }

  /**
   * Tests that mime encoded display name is decoded.
   */
  public function testMimeEncodedDisplayNameIsDecoded(): void {
    $list = AddressParser::parseList('=?UTF-8?B?w4lsw6huZQ==?= <e@example.com>', 'From');
    $this->assertSame('Élène', $list[0]->name);
  }

  /**
   * Tests that an address at a special-use domain is refused, named with why.
   *
   * @dataProvider specialUseProvider
   */
  #[DataProvider('specialUseProvider')]
  public function testSpecialUseDomainIsRefusedByName(string $address, string $domain): void {
    $this->expectException(InvalidAddressException::class);
    $this->expectExceptionMessage(sprintf('The To header holds "%s", refused by the API: .%s is a special-use domain.', $address, $domain));
    AddressParser::parseList('Ann <' . $address . '>', 'To');
  }

  /**
   * Data provider for testSpecialUseDomainIsRefusedByName().
   */
  public static function specialUseProvider(): array {
    return [
      'test' => ['owner@example.test', 'test'],
      'local, any case' => ['ana@Shop.LOCAL', 'local'],
      'localhost' => ['drupal@localhost', 'localhost'],
      'invalid' => ['x@nowhere.invalid', 'invalid'],
      'onion' => ['x@abc.onion', 'onion'],
      'arpa' => ['x@1.0.0.127.in-addr.arpa', 'arpa'],
    ];
  }

  /**
   * Tests that a special-use name inside a real domain is accepted.
   */
  public function testSpecialUseLabelInsideRealDomainIsAccepted(): void {
    $list = AddressParser::parseList('a@test.example.com, b@local.example.org', 'To');
    $this->assertSame(['a@test.example.com', 'b@local.example.org'], array_map(fn ($a) => $a->email, $list));
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
      'LF' => ["a@example.com\nBcc: victim@example.com"],
      'CR' => ["a@example.com\rX: y"],
      'CRLF in name' => ["Evil\r\n <a@example.com>"],
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
    AddressParser::parseList('=?UTF-8?B?' . base64_encode($name) . '?= <site@example.com>', 'From');
  }

  /**
   * Data provider for testControlCharactersInTheDecodedNameAreRefused().
   */
  public static function encodedControlCharacterProvider(): array {
    return [
      'CRLF' => ["Zo\u{EB}\r\nBcc: victim@evil.example.org"],
      'LF' => ["Zo\u{EB}\nBcc: victim@evil.example.org"],
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
    $this->assertFalse(AddressParser::isValidEmail('two@example.com three@example.com'));
    $this->assertFalse(AddressParser::isValidEmail('a@example.com,b@example.com'));
    $this->assertFalse(AddressParser::isValidEmail(''));
  }

}
