<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\Routing\RouteMatch;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Hook\HelpHooks;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\Routing\Route;

/**
 * The module's help page: what each part sends, and the owner's choices.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class HelpPageTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'sitebeam'];

  /**
   * Tests that the help page names what is sent and the consent choices.
   */
  public function testHelpNamesWhatIsSentAndTheConsentChoices(): void {
    $hooks = $this->container->get(HelpHooks::class);
    $help = (string) $hooks->help('help.page.sitebeam', new RouteMatch('help.page.sitebeam', new Route('/admin/help/sitebeam')));
    $this->assertStringContainsString('IP address', $help);
    $this->assertStringContainsString('without its query string, except campaign parameters', $help);
    $this->assertStringContainsString('<code>sitebeam.consent(true)</code>', $help);
    $this->assertStringContainsString('"Ask for consent"', $help);
    $this->assertStringContainsString('A daily limit caps the messages', $help);
    $this->assertNull($hooks->help('system.admin', new RouteMatch('system.admin', new Route('/admin'))));
  }

}
