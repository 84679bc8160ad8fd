<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Chat\ChatProblem;
use Drupal\sitebeam\Chat\ChatPrompt;
use Drupal\sitebeam\Chat\ChatValidator;
use Drupal\sitebeam\Consent\ConsentCheckbox;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Contact\ContactMessageComposer;
use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactSubmission;
use Drupal\sitebeam\Contact\ContactValidator;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * The consent checkbox in the contact and chat rules and the owner's mail.
 *
 * @coversDefaultClass \Drupal\sitebeam\Consent\ConsentCheckbox
 * @group sitebeam
 */
#[CoversClass(ConsentCheckbox::class)]
#[Group('sitebeam')]
final class ConsentCheckboxTest extends TestCase {

  /**
   * Tests which posted values give consent.
   *
   * @dataProvider postedValues
   */
  #[DataProvider('postedValues')]
  public function testWhichPostedValuesGiveConsent(mixed $value, bool $given): void {
    $this->assertSame($given, ConsentCheckbox::isGiven($value));
  }

  /**
   * Data provider for testWhichPostedValuesGiveConsent().
   */
  public static function postedValues(): array {
    return [
      'JSON true' => [TRUE, TRUE],
      'the ticked box' => ['yes', TRUE],
      'trimmed, any case' => [' On ', TRUE],
      'true as text' => ['TRUE', TRUE],
      'one as text' => ['1', TRUE],
      'absent' => [NULL, FALSE],
      'JSON false' => [FALSE, FALSE],
      'empty' => ['', FALSE],
      'no' => ['no', FALSE],
      'a JSON number' => [1, FALSE],
      'a list' => [['yes'], FALSE],
    ];
  }

  /**
   * Tests that the contact rules name consent last, and only when asked.
   */
  public function testContactRulesNameConsentAfterTheOtherFields(): void {
    $checkbox = new ConsentCheckbox('I agree', '');
    $post = [
      'name' => 'Ann',
      'email' => 'ann@example.com',
      'message' => 'Hi',
      'ticket' => 't',
    ];
    $tickets = static fn (): bool => TRUE;

    $refused = ContactValidator::validate($post, $tickets, $checkbox);
    $this->assertInstanceOf(ContactProblem::class, $refused);
    $this->assertSame(['invalid_field', 'consent'], [$refused->code, $refused->field]);
    $this->assertSame('name', ContactValidator::validate(['name' => ''] + $post, $tickets, $checkbox)->field);

    $sent = ContactValidator::validate($post + ['consent' => 'yes'], $tickets, $checkbox);
    $this->assertInstanceOf(ContactSubmission::class, $sent);
    $this->assertSame($checkbox, $sent->agreedTo);

    $unasked = ContactValidator::validate($post + ['consent' => 'no'], $tickets);
    $this->assertInstanceOf(ContactSubmission::class, $unasked);
    $this->assertNull($unasked->agreedTo);
  }

  /**
   * Tests that the chat rules name consent after message and model.
   */
  public function testChatRulesNameConsentAfterMessageAndModel(): void {
    $checkbox = new ConsentCheckbox('I agree', '');
    $this->assertSame('consent', ChatValidator::validate(['message' => 'Hi'], ['mock'], $checkbox)->field);
    $this->assertSame('model', ChatValidator::validate(['message' => 'Hi', 'model' => 'gpt2'], ['mock'], $checkbox)->field);
    $this->assertSame('message', ChatValidator::validate(['message' => ''], ['mock'], $checkbox)->field);
    $this->assertInstanceOf(ChatProblem::class, ChatValidator::validate(['message' => 'Hi', 'consent' => FALSE], ['mock'], $checkbox));
    $this->assertInstanceOf(ChatPrompt::class, ChatValidator::validate(['message' => 'Hi', 'consent' => TRUE], ['mock'], $checkbox));
    $this->assertInstanceOf(ChatPrompt::class, ChatValidator::validate(['message' => 'Hi', 'consent' => 'no'], ['mock']));
  }

  /**
   * Tests that the owner's mail says what the visitor agreed to, escaped.
   */
  public function testTheOwnerMailSaysWhatTheVisitorAgreedToEscaped(): void {
    $agreed = new ContactSubmission('Ann', 'ann@example.com', '', 'Hi', new ConsentCheckbox('Keep <my> data & answer', ''));
    $content = ContactMessageComposer::compose($agreed, 'o@example.com', 'Site')['content'];
    $this->assertStringContainsString('The visitor agreed: Keep &lt;my&gt; data &amp; answer', $content);
    $this->assertStringNotContainsString('<my>', $content);

    $unasked = ContactMessageComposer::compose(new ContactSubmission('Ann', 'ann@example.com', '', 'Hi'), 'o@example.com', 'Site')['content'];
    $this->assertStringNotContainsString('The visitor agreed', $unasked);
  }

  /**
   * Tests which privacy policy addresses are linked.
   */
  public function testWhichPolicyAddressesAreLinked(): void {
    $this->assertSame('path', ConsentSettings::policyUrlKind('/privacy'));
    $this->assertSame('https', ConsentSettings::policyUrlKind('https://example.com/privacy#data'));
    $refused_addresses = [
      'http://example.com/privacy',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'privacy',
      "/a\nb",
    ];
    foreach ($refused_addresses as $refused) {
      $this->assertNull(ConsentSettings::policyUrlKind($refused), $refused);
    }
  }

}
