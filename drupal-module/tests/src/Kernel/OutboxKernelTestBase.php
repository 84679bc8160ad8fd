<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Core\DependencyInjection\ContainerBuilder;
use Drupal\KernelTests\KernelTestBase;
use Drupal\Tests\sitebeam\Traits\OutboxSiteTrait;
use Drupal\Tests\sitebeam\Traits\ServerStubTrait;
use Drupal\Tests\sitebeam\Traits\SitebeamLogTrait;

/**
 * A site whose mail goes through the outbox to the real stub over HTTP.
 *
 * The faults a test sets on the stub match only its own mail, by $marker in
 * the subject (or the address of its own user), and are cleared after it.
 */
abstract class OutboxKernelTestBase extends KernelTestBase {

  use ServerStubTrait;
  use SitebeamLogTrait;
  use OutboxSiteTrait;

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system', 'user', 'dblog', 'sitebeam', 'sitebeam_test'];

  /**
   * Unique to this test: faults match it.
   */
  protected string $marker;

  /**
   * {@inheritdoc}
   */
  public function register(ContainerBuilder $container): void {
    parent::register($container);
    $this->registerOutboxServices($container);
  }

  /**
   * {@inheritdoc}
   */
  protected function setUp(): void {
    parent::setUp();
    $this->setUpOutboxSite();
    $this->marker = 'outbox' . bin2hex(random_bytes(5));
  }

}
