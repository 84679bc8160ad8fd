<?php

/**
 * @file
 * Autoloads what coder and slevomat need beside PHP_CodeSniffer.
 *
 * PHPStan's phpdoc parser and Symfony's Yaml component, from the folders
 * tests/drupal/lint.sh unpacked (there is no Composer here).
 */

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
  $roots = [
    'PHPStan\\PhpDocParser\\' => getenv('SITEBEAM_PHPDOC_PARSER'),
    'Symfony\\Component\\Yaml\\' => getenv('SITEBEAM_SYMFONY_YAML'),
  ];
  foreach ($roots as $prefix => $dir) {
    if (str_starts_with($class, $prefix)) {
      $file = $dir . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
      if (is_file($file)) {
        require $file;
      }
      return;
    }
  }
});
