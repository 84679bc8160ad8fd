<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Drupal\Core\Site\Settings;
use Drupal\sitebeam\Api\LocalhostNames;
use Symfony\Component\HttpFoundation\Request;

/**
 * The Origin/Referer rule of the public endpoints: CSRF protection.
 *
 * The endpoints allow pages of this site only, and this site's origin is the
 * request's Host only when that Host can be believed. A page on a name that
 * DNS rebinding points at this server (evil.example) sends that name as both
 * Host and Origin, from any visitor's browser.
 */
final class OriginRule {

  /**
   * A present Origin (or else Referer) must be this site.
   *
   * With neither (a script, curl) the post is judged on its content alone.
   */
  public static function allows(Request $request): bool {
    $origin = $request->headers->get('Origin');
    if ($origin !== NULL) {
      return self::isOwnOrigin($request, $origin);
    }
    $referer = $request->headers->get('Referer');
    $own = self::ownOrigin($request);
    return $referer === NULL || ($own !== NULL && stripos($referer . '/', $own . '/') === 0);
  }

  /**
   * The request's Origin when a page of this site sent it, else NULL.
   */
  public static function corsOrigin(Request $request): ?string {
    $origin = $request->headers->get('Origin');
    return $origin !== NULL && self::isOwnOrigin($request, $origin) ? $origin : NULL;
  }

  /**
   * This site's origin, when the request's Host can be believed; else NULL.
   */
  public static function ownOrigin(Request $request): ?string {
    return self::trustsHost($request->getHost()) ? $request->getSchemeAndHttpHost() : NULL;
  }

  /**
   * Whether a Host names this site rather than a name pointed at it.
   *
   * With trusted_host_patterns set, Drupal answers any other Host with a 400
   * before a controller runs (matched here too, as Symfony's Request does,
   * for the command line, where Drupal skips that check). Without it, only a
   * name no DNS answer can bind counts: localhost, *.localhost, an IP address.
   */
  public static function trustsHost(string $host): bool {
    $patterns = Settings::get('trusted_host_patterns', []);
    if ($patterns) {
      foreach ($patterns as $pattern) {
        if (preg_match('{' . $pattern . '}i', $host)) {
          return TRUE;
        }
      }
      return FALSE;
    }
    return LocalhostNames::isLocalhostName($host) || filter_var(trim($host, '[]'), FILTER_VALIDATE_IP) !== FALSE;
  }

  /**
   * Whether an Origin header is this site's.
   */
  private static function isOwnOrigin(Request $request, string $origin): bool {
    $own = self::ownOrigin($request);
    return $own !== NULL && strcasecmp(rtrim($origin, '/'), $own) === 0;
  }

}
