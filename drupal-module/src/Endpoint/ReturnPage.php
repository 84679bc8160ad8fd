<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Drupal\Core\Url;
use Symfony\Component\HttpFoundation\Request;

/**
 * The page of this site an endpoint's own page leads the visitor back to.
 *
 * Always a path, never an absolute URL: the scheme and host of one would come
 * from the Host header, which the client chooses unless trusted_host_patterns
 * is set, whereas a path resolves against the address the browser is on.
 */
final class ReturnPage {

  /**
   * The path and query of a page of this site, else the front page.
   *
   * @param \Symfony\Component\HttpFoundation\Request $request
   *   The request to the endpoint.
   * @param string $url
   *   The visitor's word for the page: a Referer, or a path kept in a form.
   * @param string $endpoint_route
   *   The endpoint's route: its own page is never the one to go back to.
   */
  public static function of(Request $request, string $url, string $endpoint_route): string {
    $front = Url::fromRoute('<front>')->toString();
    $parts = preg_match('/[\x00-\x20\x7f\\\\]/', $url) ? FALSE : parse_url($url);
    if ($parts === FALSE || ((isset($parts['scheme']) || isset($parts['host'])) && !self::isRequestOrigin($request, $parts))) {
      return $front;
    }
    $path = $parts['path'] ?? '/';
    if (!str_starts_with($path, '/') || str_starts_with($path, '//') || rtrim($path, '/') === Url::fromRoute($endpoint_route)->toString()) {
      return $front;
    }
    return $path . (isset($parts['query']) ? '?' . $parts['query'] : '');
  }

  /**
   * Whether parse_url() parts name the origin the request was sent to.
   */
  private static function isRequestOrigin(Request $request, array $parts): bool {
    if (!isset($parts['scheme'], $parts['host'])) {
      return FALSE;
    }
    $origin = $parts['scheme'] . '://' . $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
    return strcasecmp($origin, $request->getSchemeAndHttpHost()) === 0;
  }

}
