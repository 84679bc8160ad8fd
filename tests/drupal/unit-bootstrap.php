<?php

/**
 * @file
 * Autoloads the module's classes for the unit tests, without Drupal core.
 */

declare(strict_types=1);

$module = dirname(__DIR__, 2) . '/drupal-module';

// A deprecation raised in the module or its tests fails the run (on PHPUnit 12 and later: the PHP 8.5 run).
require dirname(__DIR__) . '/support/own-deprecations.php';
sitebeam_fail_on_own_deprecations([$module, dirname(__DIR__)]);
spl_autoload_register(static function (string $class) use ($module): void {
  $roots = [
    'Drupal\\sitebeam\\' => $module . '/src/',
    'Drupal\\Tests\\sitebeam\\' => $module . '/tests/src/',
  ];
  foreach ($roots as $prefix => $dir) {
    if (str_starts_with($class, $prefix)) {
      $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
      if (is_file($file)) {
        require $file;
      }
      return;
    }
  }
});

// The one core interface the pure classes recognise.
if (!interface_exists('Drupal\Component\Render\MarkupInterface')) {
  require __DIR__ . '/doubles/MarkupInterface.php';
}
