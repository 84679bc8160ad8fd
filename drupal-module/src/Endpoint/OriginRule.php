<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Symfony\Component\HttpFoundation\Request;

/**
 * The Origin/Referer rule of the public endpoints: CSRF protection.
 *
 * The endpoints allow pages of this site only.
 */
final class OriginRule {

  /**
   * A present Origin (or else Referer) must be this site.
   *
   * With neither (a script, curl) the post is judged on its content alone.
   */
  public static function allows(Request $request): bool {
    $site = $request->getSchemeAndHttpHost();
    $origin = $request->headers->get('Origin');
    if ($origin !== NULL) {
      return strcasecmp(rtrim($origin, '/'), $site) === 0;
    }
    $referer = $request->headers->get('Referer');
    return $referer === NULL || stripos($referer . '/', $site . '/') === 0;
  }

  /**
   * The request's Origin when a page of this site sent it, else NULL.
   */
  public static function corsOrigin(Request $request): ?string {
    $origin = $request->headers->get('Origin');
    return $origin !== NULL && strcasecmp(rtrim($origin, '/'), $request->getSchemeAndHttpHost()) === 0 ? $origin : NULL;
  }

}
