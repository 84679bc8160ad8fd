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
      new ContactSubmission('Ann <b>', 'ann@example.com', 'Quote', "<script>alert(1)</script>\nThanks"),
      'owner@example.com',
      'My Site',
    );
    $this->assertSame('owner@example.com', $payload['to']);
    $this->assertSame('ann@example.com', $payload['replyto']);
    $this->assertSame('[My Site] Quote', $payload['subject']);
    $this->assertSame('My Site', $payload['from_name']);
    $this->assertArrayNotHasKey('from', $payload);
    $this->assertStringContainsString('&lt;script&gt;alert(1)&lt;/script&gt;<br>', $payload['content']);
    $this->assertStringContainsString('Ann &lt;b&gt;', $payload['content']);
    $this->assertStringContainsString('ann@example.com', $payload['content']);
    $this->assertStringNotContainsString('<script>', $payload['content']);
  }

  /**
   * Tests that subject defaults to the visitor name.
   */
  public function testSubjectDefaultsToTheVisitorName(): void {
    $payload = ContactMessageComposer::compose(new ContactSubmission('Ann', 'ann@example.com', '', 'Hi'), 'o@example.com', 'Site');
    $this->assertSame('[Site] Message from Ann', $payload['subject']);
  }

  /**
   * Tests that a refused payload field names the visitor's field, or none.
   */
  public function testRefusedPayloadFieldNamesTheVisitorField(): void {
    $this->assertSame('email', ContactMessageComposer::visitorField('replyto'));
    $this->assertSame('subject', ContactMessageComposer::visitorField('subject'));
    $this->assertSame('message', ContactMessageComposer::visitorField('content'));
    // The recipient and the sender name are the site's own settings.
    $this->assertNull(ContactMessageComposer::visitorField('to'));
    $this->assertNull(ContactMessageComposer::visitorField('from_name'));
  }

}
