<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Mail\MessageMapper;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Mail\MessageMapper
 * @group sitebeam
 */
#[CoversClass(MessageMapper::class)]
#[Group('sitebeam')]
final class MessageMapperTest extends TestCase {

  /**
   * Tests that one recipient maps every field.
   */
  public function testOneRecipientMapsEveryField(): void {
    $payloads = MessageMapper::map($this->message([
      'headers' => [
        'From' => 'My Site <site@example.com>',
        'Reply-to' => 'Helpdesk <help@example.com>',
        'Content-Type' => 'text/html; charset=UTF-8',
      ],
    ]));
    $this->assertSame([[
      'to' => 'ann@example.com',
      'subject' => 'Welcome',
      'content' => '<p>Hello</p>',
      'from' => 'site@example.com',
      'from_name' => 'My Site',
      'replyto' => 'help@example.com',
    ],
    ], $payloads);
  }

  /**
   * Tests that an invalid site sender is left out with a warning.
   */
  public function testInvalidSiteSenderIsLeftOutWithWarning(): void {
    $warnings = [];
    $payloads = MessageMapper::map(
      $this->message(['from' => 'drupal@localhost', 'headers' => ['From' => 'My Site <drupal@localhost>']]),
      static function (string $warning) use (&$warnings): void {
        $warnings[] = $warning;
      },
    );
    $this->assertCount(1, $payloads);
    $this->assertArrayNotHasKey('from', $payloads[0]);
    $this->assertSame('My Site', $payloads[0]['from_name']);
    $this->assertSame(['The From header holds "drupal@localhost", refused by the API: .localhost is a special-use domain. The message goes out with the account\'s own sender.'], $warnings);
  }

  /**
   * Tests that a subject over 998 characters is shortened, with a warning.
   */
  public function testLongSubjectIsShortenedWithAnEllipsis(): void {
    $warnings = [];
    $payloads = MessageMapper::map(
      $this->message(['subject' => str_repeat('é', 1200)]),
      static function (string $warning) use (&$warnings): void {
        $warnings[] = $warning;
      },
    );
    $this->assertSame(998, mb_strlen($payloads[0]['subject']));
    $this->assertStringEndsWith('é…', $payloads[0]['subject']);
    $this->assertSame(['The subject has 1200 characters: it goes out shortened to 998.'], $warnings);
  }

  /**
   * Tests that line breaks are unfolded and other control characters dropped.
   */
  public function testSubjectControlCharactersAreUnfoldedOrDropped(): void {
    $payloads = MessageMapper::map($this->message(['subject' => "Order\r\n  confirmed\x07\u{2028}!"]));
    $this->assertSame('Order confirmed!', $payloads[0]['subject']);
  }

  /**
   * Tests that each To, Cc and Bcc recipient gets a copy disclosing no Bcc.
   */
  public function testEveryToCcAndBccRecipientGetsOwnCopyAndNoBccIsDisclosed(): void {
    $payloads = MessageMapper::map($this->message([
      'to' => 'ann@example.com, Bob <bob@example.com>',
      'headers' => ['Cc' => 'cid@example.com', 'Bcc' => 'secret1@example.com, Secret Two <secret2@example.com>'],
    ]));
    $this->assertSame(
      ['ann@example.com', 'bob@example.com', 'cid@example.com', 'secret1@example.com', 'secret2@example.com'],
      array_column($payloads, 'to'),
    );
    foreach ($payloads as $payload) {
      $json = json_encode($payload);
      foreach (['secret1', 'secret2'] as $secret) {
        if (!str_starts_with($payload['to'], $secret)) {
          $this->assertStringNotContainsString($secret, $json);
        }
      }
      $this->assertArrayNotHasKey('bcc', $payload);
    }
  }

  /**
   * Tests that recipient named twice gets one copy.
   */
  public function testRecipientNamedTwiceGetsOneCopy(): void {
    $payloads = MessageMapper::map($this->message([
      'to' => 'ann@example.com',
      'headers' => ['CC' => 'Ann@example.com'],
    ]));
    $this->assertCount(1, $payloads);
  }

  /**
   * Tests that site from is used when headers have none.
   */
  public function testSiteFromIsUsedWhenHeadersHaveNone(): void {
    $payloads = MessageMapper::map($this->message(['from' => 'site@example.com', 'reply-to' => 'r@example.com']));
    $this->assertSame('site@example.com', $payloads[0]['from']);
    $this->assertArrayNotHasKey('from_name', $payloads[0]);
    $this->assertSame('r@example.com', $payloads[0]['replyto']);
  }

  /**
   * Tests that subject is one line within the limit.
   */
  public function testSubjectIsOneLineWithinTheLimit(): void {
    $payloads = MessageMapper::map($this->message(['subject' => "Two\r\n lines " . str_repeat('x', 2000)]));
    $this->assertStringStartsWith('Two lines x', $payloads[0]['subject']);
    $this->assertSame(998, mb_strlen($payloads[0]['subject']));
  }

  /**
   * Tests that attachments go with every copy.
   */
  public function testAttachmentsGoWithEveryCopy(): void {
    $payloads = MessageMapper::map($this->message([
      'to' => 'a@example.com, b@example.com',
      'params' => ['attachments' => [['filecontent' => 'x', 'filename' => 'x.txt', 'filemime' => 'text/plain']]],
    ]));
    $this->assertSame('x.txt', $payloads[0]['attachment']['file_name']);
    $this->assertSame($payloads[0]['attachment'], $payloads[1]['attachment']);
  }

  /**
   * Tests that empty body is an empty content.
   */
  public function testEmptyBodyIsAnEmptyContent(): void {
    $this->assertSame('', MessageMapper::map($this->message(['body' => '']))[0]['content']);
  }

  /**
   * Tests that message without recipient is refused.
   */
  public function testMessageWithoutRecipientIsRefused(): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('no recipient');
    MessageMapper::map($this->message(['to' => '']));
  }

  /**
   * Tests that message without subject is refused.
   */
  public function testMessageWithoutSubjectIsRefused(): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('no subject');
    MessageMapper::map($this->message(['subject' => " \n "]));
  }

  /**
   * Tests that header injection in cc is refused.
   */
  public function testHeaderInjectionInCcIsRefused(): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('Cc header contains a line break');
    MessageMapper::map($this->message(['headers' => ['Cc' => "x@example.com\r\nBcc: all@example.com"]]));
  }

  /**
   * A formatted message with the given keys changed.
   */
  private function message(array $overrides): array {
    return $overrides + [
      'id' => 'user_register_no_approval_required',
      'to' => 'ann@example.com',
      'subject' => 'Welcome',
      'body' => '<p>Hello</p>',
      'headers' => [],
      'params' => [],
    ];
  }

}
