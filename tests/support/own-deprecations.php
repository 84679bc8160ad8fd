<?php
/**
 * @file
 * Makes a deprecation raised in the project's own files an exception, so the test that meets it fails.
 *
 * Included by the PHPUnit bootstraps (WordPress: tests/wordpress/phpunit/bootstrap.php, the module's unit
 * tests: tests/drupal/unit-bootstrap.php). PHPUnit 12 and later (PHPUnit 13 on the PHP 8.5 runs) hand every
 * error to the handler registered before theirs first, so the exception reaches the test; during the
 * bootstrap it fails the run. Deprecations raised in core's, PHPUnit's or a library's files go on to PHPUnit
 * (or PHP's log) as before: they are not ours to fix.
 */

/**
 * Registers the handler.
 *
 * @param string[] $own_folders Folders whose files are ours (the plugin as installed, the module, the tests).
 */
function sitebeam_fail_on_own_deprecations(array $own_folders): void {
  $own_folders = array_map(static fn (string $folder): string => rtrim($folder, '/') . '/', array_filter(array_map('realpath', $own_folders)));
  set_error_handler(static function (int $level, string $message, string $file, int $line) use ($own_folders): bool {
    if ($level !== E_DEPRECATED && $level !== E_USER_DEPRECATED) {
      return FALSE;
    }
    foreach ($own_folders as $folder) {
      if (str_starts_with($file, $folder)) {
        throw new \ErrorException("Deprecated in our code: $message", 0, $level, $file, $line);
      }
    }
    return FALSE;
  });
}
