<?php

/**
 * @file
 * Boots the test site's Drupal, as /work/shared/testing/drupal.md describes.
 *
 * Required from DRUPAL_ROOT (the working folder) by site-setup.php and
 * outbox-site.php: there is no drush. Returns the booted kernel.
 */

declare(strict_types=1);

use Drupal\Core\DrupalKernel;
use Symfony\Component\HttpFoundation\Request;

$autoloader = require getcwd() . '/autoload.php';
$request = Request::create('/', 'GET', [], [], [], [
  'SCRIPT_NAME' => '/index.php',
  'SCRIPT_FILENAME' => getcwd() . '/index.php',
]);
$kernel = DrupalKernel::createFromRequest($request, $autoloader, 'prod');
$kernel->boot();
$kernel->preHandle($request);
return $kernel;
