<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactSubmission;
use Drupal\sitebeam\Contact\ContactValidator;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Contact\ContactValidator
 * @group sitebeam
 */
#[CoversClass(ContactValidator::class)]
#[Group('sitebeam')]
final class ContactValidatorTest extends TestCase {

  /**
   * Tests that valid post is trimmed into a submission.
   */
  public function testValidPostIsTrimmedIntoSubmission(): void {
    $verdict = ContactValidator::validate($this->post(['name' => '  Ann  ', 'message' => "Line 1\nLine 2\n\n"]), $this->tickets());
    $this->assertInstanceOf(ContactSubmission::class, $verdict);
    $this->assertSame('Ann', $verdict->name);
    $this->assertSame("Line 1\nLine 2", $verdict->message);
  }

  /**
   * Tests that tabs and line breaks are allowed in the message.
   */
  public function testTabsAndLineBreaksAreAllowedInTheMessage(): void {
    $verdict = ContactValidator::validate($this->post(['message' => "Col 1\tCol 2\r\nLine 2"]), $this->tickets());
    $this->assertInstanceOf(ContactSubmission::class, $verdict);
  }

  /**
   * Tests that subject is optional.
   */
  public function testSubjectIsOptional(): void {
    $this->assertInstanceOf(ContactSubmission::class, ContactValidator::validate($this->post(['subject' => '']), $this->tickets()));
  }

  /**
   * Tests that refusals.
   *
   * @dataProvider refusals
   */
  #[DataProvider('refusals')]
  public function testRefusals(array $overrides, string $code, string $field): void {
    $verdict = ContactValidator::validate($this->post($overrides), $this->tickets());
    $this->assertInstanceOf(ContactProblem::class, $verdict);
    $this->assertSame($code, $verdict->code);
    $this->assertSame($field, $verdict->field);
    $this->assertSame(400, $verdict->status());
  }

  /**
   * Data provider for testRefusals().
   */
  public static function refusals(): array {
    return [
      'honeypot filled' => [['homepage' => 'http://spam.test'], ContactProblem::SPAM_SUSPECTED, ''],
      'honeypot not text' => [['homepage' => ['x']], ContactProblem::SPAM_SUSPECTED, ''],
      'ticket missing' => [['ticket' => NULL], ContactProblem::SPAM_SUSPECTED, 'ticket'],
      'ticket refused' => [['ticket' => 'forged'], ContactProblem::SPAM_SUSPECTED, 'ticket'],
      'name with vertical tab' => [['name' => "Ann\vX"], ContactProblem::INVALID_FIELD, 'name'],
      'name with NUL' => [['name' => "Ann\0"], ContactProblem::INVALID_FIELD, 'name'],
      'name with NEL' => [['name' => "Ann\u{85}X"], ContactProblem::INVALID_FIELD, 'name'],
      'subject with line separator' => [['subject' => "Hi\u{2028}X"], ContactProblem::INVALID_FIELD, 'subject'],
      'subject with paragraph separator' => [['subject' => "Hi\u{2029}X"], ContactProblem::INVALID_FIELD, 'subject'],
      'message with vertical tab' => [['message' => "Hi\vX"], ContactProblem::INVALID_FIELD, 'message'],
      'non-ASCII local part' => [['email' => 'josé@example.com'], ContactProblem::INVALID_FIELD, 'email'],
      'one-letter top-level domain' => [['email' => 'a@b.c'], ContactProblem::INVALID_FIELD, 'email'],
      'consecutive dots' => [['email' => 'a..b@example.com'], ContactProblem::INVALID_FIELD, 'email'],
      'special-use domain, refused upstream' => [['email' => 'ana@shop.local'], ContactProblem::INVALID_FIELD, 'email'],
      'name missing' => [['name' => '   '], ContactProblem::INVALID_FIELD, 'name'],
      'name too long' => [['name' => str_repeat('é', 201)], ContactProblem::INVALID_FIELD, 'name'],
      'name with line break' => [['name' => "Ann\r\nBcc: x@example.com"], ContactProblem::INVALID_FIELD, 'name'],
      'email invalid' => [['email' => 'ann@'], ContactProblem::INVALID_FIELD, 'email'],
      'two emails' => [['email' => 'a@example.com, b@example.com'], ContactProblem::INVALID_FIELD, 'email'],
      'email with display name' => [['email' => 'Ann <ann@example.com>'], ContactProblem::INVALID_FIELD, 'email'],
      'email with comment' => [['email' => 'ann(x)@example.com'], ContactProblem::INVALID_FIELD, 'email'],
      'email with line break' => [['email' => "a@example.com\nb@example.com"], ContactProblem::INVALID_FIELD, 'email'],
      'subject with line break' => [['subject' => "Hi\nBcc: x@example.com"], ContactProblem::INVALID_FIELD, 'subject'],
      'subject too long' => [['subject' => str_repeat('s', 201)], ContactProblem::INVALID_FIELD, 'subject'],
      'message missing' => [['message' => ''], ContactProblem::INVALID_FIELD, 'message'],
      'message too long' => [['message' => str_repeat('m', 10001)], ContactProblem::INVALID_FIELD, 'message'],
      'message not text' => [['message' => ['a']], ContactProblem::INVALID_FIELD, 'message'],
      'invalid UTF-8' => [['message' => "\xC3\x28"], ContactProblem::INVALID_FIELD, 'message'],
    ];
  }

  /**
   * Tests that limits are inclusive.
   */
  public function testLimitsAreInclusive(): void {
    $verdict = ContactValidator::validate($this->post([
      'name' => str_repeat('n', 200),
      'subject' => str_repeat('s', 200),
      'message' => str_repeat('m', 10000),
    ]), $this->tickets());
    $this->assertInstanceOf(ContactSubmission::class, $verdict);
  }

  /**
   * Tests that problem statuses.
   */
  public function testProblemStatuses(): void {
    $this->assertSame(429, (new ContactProblem(ContactProblem::RATE_LIMITED))->status());
    $this->assertSame(403, (new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN))->status());
    $this->assertSame(503, (new ContactProblem(ContactProblem::NOT_CONFIGURED))->status());
    $this->assertSame(502, (new ContactProblem(ContactProblem::UPSTREAM_FAILED))->status());
    $this->expectException(\InvalidArgumentException::class);
    new ContactProblem('made_up');
  }

  /**
   * A ticket check that accepts the ticket of post() only.
   */
  private function tickets(): \Closure {
    return static fn (mixed $ticket): bool => $ticket === 'valid-ticket';
  }

  /**
   * A valid post with the given fields changed (NULL removes one).
   */
  private function post(array $overrides): array {
    return array_filter($overrides + [
      'name' => 'Ann',
      'email' => 'ann@example.com',
      'subject' => 'Hello',
      'message' => 'A question.',
      'homepage' => '',
      'ticket' => 'valid-ticket',
    ], static fn ($value): bool => $value !== NULL);
  }

}
