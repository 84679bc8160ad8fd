<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Requests to the kernel test's site, answered as the site answers them.
 */
trait HttpKernelTrait {

  /**
   * Sends a request through Drupal's HTTP kernel.
   */
  protected function handle(Request $request): Response {
    return $this->container->get('http_kernel')->handle($request);
  }

}
