<?php

/**
 * @file
 * Boots the test site's Drupal, as /work/shared/testing/drupal.md describes.
 *
 * Required from DRUPAL_ROOT (the working folder) by site-setup.php,
 * outbox-site.php and upgrade/upgrade-site.php: there is no drush. Returns the
 * booted kernel, of the class $sitebeam_kernel_class names when the script
 * requiring this file sets it (the upgrade test's UpdateKernel).
 */

declare(strict_types=1);

use Drupal\Core\DrupalKernel;
use Symfony\Component\HttpFoundation\Request;

$autoloader = require getcwd() . '/autoload.php';
$request = Request::create('/', 'GET', [], [], [], [
  'SCRIPT_NAME' => '/index.php',
  'SCRIPT_FILENAME' => getcwd() . '/index.php',
]);
$kernel = ($sitebeam_kernel_class ?? DrupalKernel::class)::createFromRequest($request, $autoloader, 'prod');
$kernel->boot();
// On the stack from the start, as a web request is, while modules load.
$kernel->getContainer()->get('request_stack')->push($request);
$kernel->preHandle($request);
return $kernel;
