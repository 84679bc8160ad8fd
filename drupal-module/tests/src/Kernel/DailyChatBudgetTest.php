<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Chat\DailyChatBudget;
use PHPUnit\Framework\Attributes\Group;

/**
 * The chat's daily budget on core's database: per UTC day, for the whole site.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class DailyChatBudgetTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'sitebeam'];

  /**
   * The clock the budget reads.
   */
  private int $now = 0;

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->installSchema('sitebeam', [DailyChatBudget::TABLE]);
  }

  /**
   * Tests that a day's limit holds until the next UTC midnight, then restarts.
   */
  public function testTheLimitHoldsUntilTheNextUtcMidnightThenRestarts(): void {
    // 2026-11-25 23:59:00 UTC: 60 s before the next day.
    $this->now = gmmktime(23, 59, 0, 11, 25, 2026);
    $budget = $this->budget();
    $this->assertNull($budget->take(2));
    $this->assertNull($budget->take(2));
    $this->assertSame(60, $budget->take(2));
    $this->assertSame(60, $budget->take(2), 'A refused message is not counted either.');
    $this->assertSame(2, $this->messagesOf('2026-11-25'));

    // A lower limit set during the day applies at once; a higher one lets
    // more through.
    $this->assertSame(60, $budget->take(1));
    $this->assertNull($budget->take(3));
    $this->assertSame(60, $budget->take(3));

    $this->now += 60;
    $this->assertNull($budget->take(2));
    $this->assertSame(1, $this->messagesOf('2026-11-26'));
    $this->assertNull($this->messagesOf('2026-11-25'), 'The days before are forgotten.');
    $this->assertNull($budget->take(2));
    $this->assertSame(86400, $budget->take(2), "At midnight, a whole day to wait.");
  }

  /**
   * A budget reading the test's clock.
   */
  private function budget(): DailyChatBudget {
    $time = $this->createMock(TimeInterface::class);
    $time->method('getCurrentTime')->willReturnCallback(fn (): int => $this->now);
    return new DailyChatBudget($this->container->get('database'), $time);
  }

  /**
   * The messages counted for a day, NULL when the day has no row.
   */
  private function messagesOf(string $day): ?int {
    $count = $this->container->get('database')->select(DailyChatBudget::TABLE, 'd')
      ->fields('d', ['messages'])
      ->condition('day', $day)
      ->execute()
      ->fetchField();
    return $count === FALSE ? NULL : (int) $count;
  }

}
