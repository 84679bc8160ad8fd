<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactSubmission;
use Drupal\sitebeam\Contact\ContactValidator;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Contact\ContactValidator
 * @group sitebeam
 */
final class ContactValidatorTest extends TestCase {

  private const NOW = 1_700_000_000_000;

  public function testValidPostIsTrimmedIntoASubmission(): void {
    $verdict = ContactValidator::validate($this->post(['name' => '  Ann  ', 'message' => "Line 1\nLine 2\n\n"]), self::NOW);
    $this->assertInstanceOf(ContactSubmission::class, $verdict);
    $this->assertSame('Ann', $verdict->name);
    $this->assertSame("Line 1\nLine 2", $verdict->message);
  }

  public function testStartInTheFutureIsTheVisitorClockNotABot(): void {
    $verdict = ContactValidator::validate($this->post(['started_at' => (string) (self::NOW + 60_000)]), self::NOW);
    $this->assertInstanceOf(ContactSubmission::class, $verdict);
  }

  public function testSubjectIsOptional(): void {
    $this->assertInstanceOf(ContactSubmission::class, ContactValidator::validate($this->post(['subject' => '']), self::NOW));
  }

  /**
   * @dataProvider refusals
   */
  public function testRefusals(array $overrides, string $code, string $field): void {
    $verdict = ContactValidator::validate($this->post($overrides), self::NOW);
    $this->assertInstanceOf(ContactProblem::class, $verdict);
    $this->assertSame($code, $verdict->code);
    $this->assertSame($field, $verdict->field);
    $this->assertSame(400, $verdict->status());
  }

  public static function refusals(): array {
    return [
      'honeypot filled' => [['homepage' => 'http://spam.test'], ContactProblem::SPAM_SUSPECTED, ''],
      'honeypot not text' => [['homepage' => ['x']], ContactProblem::SPAM_SUSPECTED, ''],
      'sent within 3 s' => [['started_at' => (string) (self::NOW - 2999)], ContactProblem::SPAM_SUSPECTED, ''],
      'started_at not a number' => [['started_at' => 'soon'], ContactProblem::SPAM_SUSPECTED, ''],
      'name missing' => [['name' => '   '], ContactProblem::INVALID_FIELD, 'name'],
      'name too long' => [['name' => str_repeat('é', 201)], ContactProblem::INVALID_FIELD, 'name'],
      'name with line break' => [['name' => "Ann\r\nBcc: x@example.test"], ContactProblem::INVALID_FIELD, 'name'],
      'email invalid' => [['email' => 'ann@'], ContactProblem::INVALID_FIELD, 'email'],
      'two emails' => [['email' => 'a@example.test, b@example.test'], ContactProblem::INVALID_FIELD, 'email'],
      'email with display name' => [['email' => 'Ann <ann@example.test>'], ContactProblem::INVALID_FIELD, 'email'],
      'email with comment' => [['email' => 'ann(x)@example.test'], ContactProblem::INVALID_FIELD, 'email'],
      'email with line break' => [['email' => "a@example.test\nb@example.test"], ContactProblem::INVALID_FIELD, 'email'],
      'subject with line break' => [['subject' => "Hi\nBcc: x@example.test"], ContactProblem::INVALID_FIELD, 'subject'],
      'subject too long' => [['subject' => str_repeat('s', 201)], ContactProblem::INVALID_FIELD, 'subject'],
      'message missing' => [['message' => ''], ContactProblem::INVALID_FIELD, 'message'],
      'message too long' => [['message' => str_repeat('m', 10001)], ContactProblem::INVALID_FIELD, 'message'],
      'message not text' => [['message' => ['a']], ContactProblem::INVALID_FIELD, 'message'],
      'invalid UTF-8' => [['message' => "\xC3\x28"], ContactProblem::INVALID_FIELD, 'message'],
    ];
  }

  public function testLimitsAreInclusive(): void {
    $verdict = ContactValidator::validate($this->post([
      'name' => str_repeat('n', 200),
      'subject' => str_repeat('s', 200),
      'message' => str_repeat('m', 10000),
      'started_at' => (string) (self::NOW - 3000),
    ]), self::NOW);
    $this->assertInstanceOf(ContactSubmission::class, $verdict);
  }

  public function testProblemStatuses(): void {
    $this->assertSame(429, (new ContactProblem(ContactProblem::RATE_LIMITED))->status());
    $this->assertSame(403, (new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN))->status());
    $this->assertSame(503, (new ContactProblem(ContactProblem::NOT_CONFIGURED))->status());
    $this->assertSame(502, (new ContactProblem(ContactProblem::UPSTREAM_FAILED))->status());
    $this->expectException(\InvalidArgumentException::class);
    new ContactProblem('made_up');
  }

  private function post(array $overrides): array {
    return $overrides + [
      'name' => 'Ann',
      'email' => 'ann@example.test',
      'subject' => 'Hello',
      'message' => 'A question.',
      'homepage' => '',
      'started_at' => (string) (self::NOW - 10_000),
    ];
  }

}
