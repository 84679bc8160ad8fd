<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Endpoint;

use Drupal\sitebeam\Contract;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The answers the public endpoints share: JSON, refusals, no caching, CORS.
 */
final class EndpointResponses {

  /**
   * A page answering a plain form post runs no script and loads nothing.
   */
  private const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

  /**
   * A JSON answer that a page of this site may read and nothing caches.
   */
  public static function json(Request $request, array $body, int $status = 200, array $headers = []): JsonResponse {
    return self::forPage($request, new JsonResponse($body, $status, $headers));
  }

  /**
   * The protocols' JSON refusal: status "ko", a text, the code, the field.
   *
   * @param \Symfony\Component\HttpFoundation\Request $request
   *   The refused request.
   * @param \Drupal\sitebeam\Endpoint\Refusal $refusal
   *   Why it is refused.
   * @param string $text
   *   Words a visitor may read.
   * @param string $allow
   *   The Allow header of a 405.
   */
  public static function refusal(Request $request, Refusal $refusal, string $text, string $allow = ''): JsonResponse {
    $body = [
      Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_KO,
      Contract::RESPONSE_FIELD_ERROR => $text,
      Contract::RESPONSE_FIELD_I18N_CODE => $refusal->code,
    ];
    if ($refusal->field !== '') {
      $body[Contract::CONTACT_RESPONSE_FIELD_FIELD] = $refusal->field;
    }
    return self::json($request, $body, $refusal->status(), self::refusalHeaders($refusal, $allow));
  }

  /**
   * Retry-After and Allow, when the refusal has them.
   */
  public static function refusalHeaders(Refusal $refusal, string $allow = ''): array {
    $headers = $refusal->retryAfter ? ['Retry-After' => (string) $refusal->retryAfter] : [];
    if ($allow !== '' && $refusal->status() === 405) {
      $headers['Allow'] = $allow;
    }
    return $headers;
  }

  /**
   * The CORS pre-flight: 204 for a page of this site, else NULL.
   */
  public static function preflight(Request $request, string $methods): ?Response {
    $origin = OriginRule::corsOrigin($request);
    if ($origin === NULL) {
      return NULL;
    }
    return new Response('', 204, [
      'Access-Control-Allow-Origin' => $origin,
      'Access-Control-Allow-Methods' => $methods,
      'Access-Control-Allow-Headers' => 'Content-Type',
      'Access-Control-Max-Age' => '600',
      'Cache-Control' => 'no-store, private',
      'Vary' => 'Origin',
    ]);
  }

  /**
   * The whole page answering a visitor without JavaScript, never cached.
   */
  public static function page(string $html, int $status, array $headers = []): Response {
    return self::noStore(new Response($html, $status, $headers + [
      'Content-Type' => 'text/html; charset=UTF-8',
      'Content-Security-Policy' => self::PAGE_POLICY,
    ]));
  }

  /**
   * Lets a page of this site read the answer (and its Retry-After).
   */
  public static function forPage(Request $request, Response $response): Response {
    $origin = OriginRule::corsOrigin($request);
    if ($origin !== NULL) {
      $response->headers->set('Access-Control-Allow-Origin', $origin);
      $response->headers->set('Access-Control-Expose-Headers', 'retry-after');
      $response->setVary('Origin', FALSE);
    }
    return self::noStore($response);
  }

  /**
   * Keeps an answer out of every cache.
   */
  public static function noStore(Response $response): Response {
    $response->headers->set('Cache-Control', 'no-store, private');
    return $response;
  }

}
