<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Chat\PromptSettings;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Chat\PromptSettings
 * @group sitebeam
 */
#[CoversClass(PromptSettings::class)]
#[Group('sitebeam')]
final class PromptSettingsTest extends TestCase {

  /**
   * Tests that every setting of the contract has its type.
   */
  public function testEverySettingHasItsType(): void {
    $types = PromptSettings::types();
    $this->assertCount(10, $types);
    $this->assertSame(PromptSettings::INTEGER, $types['max_length']);
    $this->assertSame(PromptSettings::NUMBER, $types['temperature']);
    $this->assertSame(PromptSettings::BOOLEAN, $types['do_sample']);
  }

  /**
   * Tests that form input is typed, and empty means the API default.
   */
  public function testFormInputIsTyped(): void {
    $this->assertSame(50, PromptSettings::fromInput('max_length', '50'));
    $this->assertSame(0.7, PromptSettings::fromInput('temperature', ' 0.7 '));
    $this->assertFalse(PromptSettings::fromInput('do_sample', 'false'));
    $this->assertNull(PromptSettings::fromInput('top_k', ''));
    $this->assertSame('1.5', PromptSettings::fromInput('num_beans', '1.5'), 'Left as it is for isValid() to refuse.');
  }

  /**
   * Tests that num_beams, an alias, is sent as the service's num_beans.
   */
  public function testAliasIsSentUnderTheServiceName(): void {
    $this->assertSame(['num_beans' => 3], PromptSettings::toSend(['num_beams' => 3]));
    $this->assertSame(['num_beans' => 2], PromptSettings::toSend(['num_beams' => 3, 'num_beans' => 2]), 'The service name wins.');
    $this->assertSame(['top_k' => 5, 'num_beans' => 3], PromptSettings::canonical(['num_beams' => 3, 'top_k' => 5]));
  }

  /**
   * Tests the rule of each type.
   */
  public function testEachTypeHasItsRule(): void {
    $this->assertTrue(PromptSettings::isValid('top_k', 1));
    $this->assertFalse(PromptSettings::isValid('top_k', 0));
    $this->assertFalse(PromptSettings::isValid('top_k', 1.0));
    $this->assertTrue(PromptSettings::isValid('top_p', 1));
    $this->assertFalse(PromptSettings::isValid('top_p', 0.0));
    $this->assertFalse(PromptSettings::isValid('top_p', INF));
    $this->assertTrue(PromptSettings::isValid('early_stopping', FALSE));
    $this->assertFalse(PromptSettings::isValid('early_stopping', 'yes'));
    $this->assertFalse(PromptSettings::isValid('temprature', 0.7), 'A misspelt setting is no setting.');
  }

  /**
   * Tests that only set, valid settings are sent, in the contract's order.
   */
  public function testOnlySetValidSettingsAreSent(): void {
    $sent = PromptSettings::toSend([
      'temperature' => 0.7,
      'max_length' => 50,
      'top_k' => NULL,
      'do_sample' => 'yes',
      'colour' => 'red',
    ]);
    $this->assertSame(['max_length' => 50, 'temperature' => 0.7], $sent);
  }

}
