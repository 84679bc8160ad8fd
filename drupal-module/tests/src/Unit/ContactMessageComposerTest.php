<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Contact\ContactMessageComposer;
use Drupal\sitebeam\Contact\ContactSubmission;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Contact\ContactMessageComposer
 * @group sitebeam
 */
#[CoversClass(ContactMessageComposer::class)]
#[Group('sitebeam')]
final class ContactMessageComposerTest extends TestCase {

  /**
   * Tests that recipient is fixed and visitor goes to reply to and body.
   */
  public function testRecipientIsFixedAndVisitorGoesToReplyToAndBody(): void {
    $payload = ContactMessageComposer::compose(
      new ContactSubmission('Ann <b>', 'ann@example.test', 'Quote', "<script>alert(1)</script>\nThanks"),
      'owner@example.test',
      'My Site',
    );
    $this->assertSame('owner@example.test', $payload['to']);
    $this->assertSame('ann@example.test', $payload['replyto']);
    $this->assertSame('[My Site] Quote', $payload['subject']);
    $this->assertSame('My Site', $payload['from_name']);
    $this->assertArrayNotHasKey('from', $payload);
    $this->assertStringContainsString('&lt;script&gt;alert(1)&lt;/script&gt;<br>', $payload['content']);
    $this->assertStringContainsString('Ann &lt;b&gt;', $payload['content']);
    $this->assertStringContainsString('ann@example.test', $payload['content']);
    $this->assertStringNotContainsString('<script>', $payload['content']);
  }

  /**
   * Tests that subject defaults to the visitor name.
   */
  public function testSubjectDefaultsToTheVisitorName(): void {
    $payload = ContactMessageComposer::compose(new ContactSubmission('Ann', 'ann@example.test', '', 'Hi'), 'o@example.test', 'Site');
    $this->assertSame('[Site] Message from Ann', $payload['subject']);
  }

}
