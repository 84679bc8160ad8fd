<?php

declare(strict_types=1);

namespace Drupal\sitebeam_test;

use Drupal\Core\DependencyInjection\ContainerBuilder;
use Drupal\Core\DependencyInjection\ServiceModifierInterface;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam_test\EngineStandIn\Outbox as OutboxStandIn;

/**
 * TEST-ONLY STAND-IN, to delete at the merge of the engine (issue #35).
 *
 * While the engine's Outbox lacks the bulk methods of OUTBOX-INTERFACE.md,
 * the outbox service is the stand-in that has them.
 */
class SitebeamTestServiceProvider implements ServiceModifierInterface {

  /**
   * {@inheritdoc}
   */
  public function alter(ContainerBuilder $container): void {
    if ($container->hasDefinition('sitebeam.outbox') && !method_exists(Outbox::class, 'makeAllDue')) {
      $container->getDefinition('sitebeam.outbox')->setClass(OutboxStandIn::class);
    }
  }

}
