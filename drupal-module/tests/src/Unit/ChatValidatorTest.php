<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Chat\ChatProblem;
use Drupal\sitebeam\Chat\ChatPrompt;
use Drupal\sitebeam\Chat\ChatValidator;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Chat\ChatValidator
 * @group sitebeam
 */
#[CoversClass(ChatValidator::class)]
#[Group('sitebeam')]
final class ChatValidatorTest extends TestCase {

  private const MODELS = ['mock', 'nltksentiment'];

  /**
   * Tests that the message is trimmed and the default model used.
   */
  public function testMessageIsTrimmedAndTheDefaultModelUsed(): void {
    $prompt = ChatValidator::validate(['message' => "  Hello\tthere\r\n ", 'settings' => ['top_k' => 9]], self::MODELS);
    $this->assertInstanceOf(ChatPrompt::class, $prompt);
    $this->assertSame('mock', $prompt->model);
    $this->assertSame("Hello\tthere", $prompt->message);
  }

  /**
   * Tests that an allowed model is kept.
   */
  public function testAllowedModelIsKept(): void {
    $prompt = ChatValidator::validate(['message' => 'Hi', 'model' => 'nltksentiment'], self::MODELS);
    $this->assertInstanceOf(ChatPrompt::class, $prompt);
    $this->assertSame('nltksentiment', $prompt->model);
  }

  /**
   * Tests that 4,000 characters pass, counted as code points.
   */
  public function testLengthCountsCodePoints(): void {
    $this->assertInstanceOf(ChatPrompt::class, ChatValidator::validate(['message' => str_repeat("\u{1F600}", 4000)], self::MODELS));
    $this->assertInstanceOf(ChatProblem::class, ChatValidator::validate(['message' => str_repeat('x', 4001)], self::MODELS));
  }

  /**
   * Tests that refusals name their field.
   *
   * @dataProvider refusals
   */
  #[DataProvider('refusals')]
  public function testRefusalsNameTheirField(array $input, string $code, string $field): void {
    $problem = ChatValidator::validate($input, self::MODELS);
    $this->assertInstanceOf(ChatProblem::class, $problem);
    $this->assertSame($code, $problem->code);
    $this->assertSame($field, $problem->field);
  }

  /**
   * Data provider for testRefusalsNameTheirField().
   */
  public static function refusals(): array {
    return [
      'no message' => [['model' => 'mock'], ChatProblem::INVALID_FIELD, 'message'],
      'blank message' => [['message' => " \n\t "], ChatProblem::INVALID_FIELD, 'message'],
      'message not text' => [['message' => ['Hi']], ChatProblem::INVALID_FIELD, 'message'],
      'vertical tab at the edge' => [['message' => "\vHi"], ChatProblem::INVALID_FIELD, 'message'],
      'line separator' => [['message' => "Hi\u{2028}there"], ChatProblem::INVALID_FIELD, 'message'],
      'invalid UTF-8' => [['message' => "Hi\xC3"], ChatProblem::INVALID_FIELD, 'message'],
      'model outside the list' => [['message' => 'Hi', 'model' => 'gpt2'], ChatProblem::INVALID_FIELD, 'model'],
      'model in another case' => [['message' => 'Hi', 'model' => 'MOCK'], ChatProblem::INVALID_FIELD, 'model'],
      'model not text' => [['message' => 'Hi', 'model' => ['mock']], ChatProblem::INVALID_FIELD, 'model'],
      'honeypot filled' => [['message' => 'Hi', 'homepage' => 'x'], ChatProblem::SPAM_SUSPECTED, ''],
      'honeypot not text' => [['message' => 'Hi', 'homepage' => ['x']], ChatProblem::SPAM_SUSPECTED, ''],
    ];
  }

}
