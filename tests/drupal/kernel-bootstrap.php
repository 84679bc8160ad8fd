<?php

/**
 * @file
 * PHPUnit bootstrap for kernel tests on Debian's phpunit 9.6 (no Composer).
 *
 * Follows /work/shared/testing/drupal.md: Mink is absent (kernel tests never
 * use it), the test libraries come from /usr/share/php, then core's own
 * bootstrap runs.
 */

declare(strict_types=1);

namespace Behat\Mink\Element {

  if (!class_exists(Element::class, FALSE)) {

    /**
     * Stand-in: core's test bootstrap aliases a class extending this.
     */
    class Element {}

    /**
     * Stand-in: core's test bootstrap aliases a class extending this.
     */
    class TraversableElement extends Element {}

  }

}

namespace {

  require_once '/usr/share/php/org/bovigo/vfs/autoload.php';
  require_once '/usr/share/php/Symfony/Bridge/PhpUnit/autoload.php';
  require_once '/usr/share/php/Prophecy/PhpUnit/autoload.php';
  class_exists(\PHPUnit\Framework\TestCase::class);
  require getenv('DRUPAL_ROOT') . '/core/tests/bootstrap.php';

}
