<?php

/**
 * @file
 * PHPUnit bootstrap for kernel tests on Debian's phpunit 9.6 (no Composer).
 *
 * Follows /work/shared/testing/drupal.md: Mink is absent (kernel tests never
 * use it), the test libraries come from /usr/share/php, then core's own
 * bootstrap runs, with the extensions it finds kept for the next process.
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

  // Every kernel test runs in a PHP process of its own, and core's bootstrap
  // walks the whole codebase for extensions in each one (a fifth of a short
  // test's time). It skips the walk when $GLOBALS['namespaces'] is set: the
  // first process writes what it found to SITEBEAM_KERNEL_NAMESPACES
  // (kernel.sh: one file per run), the others read it.
  $sitebeam_namespaces = (string) getenv('SITEBEAM_KERNEL_NAMESPACES');
  if ($sitebeam_namespaces !== '' && is_file($sitebeam_namespaces)) {
    $GLOBALS['namespaces'] = require $sitebeam_namespaces;
  }
  require getenv('DRUPAL_ROOT') . '/core/tests/bootstrap.php';
  if ($sitebeam_namespaces !== '' && !is_file($sitebeam_namespaces)) {
    file_put_contents($sitebeam_namespaces . '.partial', '<?php return ' . var_export($GLOBALS['namespaces'], TRUE) . ';');
    rename($sitebeam_namespaces . '.partial', $sitebeam_namespaces);
  }

}
