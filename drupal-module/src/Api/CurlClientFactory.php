<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

use Drupal\Core\Http\ClientFactory;
use GuzzleHttp\ClientInterface;
use GuzzleHttp\Handler\CurlHandler;
use GuzzleHttp\HandlerStack;

/**
 * Drupal's HTTP client for the instance, always on Guzzle's cURL handler.
 *
 * Guzzle picks PHP's stream handler for streamed requests while
 * allow_url_fopen is on, and that handler ignores cURL options: the name
 * would be resolved again at connect time, whatever InstanceHost checked
 * (CURLOPT_RESOLVE). Drupal's middleware stays; only the handler changes.
 */
final class CurlClientFactory {

  /**
   * The client the sitebeam.http_client service is.
   */
  public static function create(ClientFactory $factory, HandlerStack $stack): ClientInterface {
    $stack = clone $stack;
    if (function_exists('curl_init')) {
      $stack->setHandler(new CurlHandler());
    }
    return $factory->fromOptions(['handler' => $stack]);
  }

}
