<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\DependencyInjection\AutowireTrait;
use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\EndpointResponses;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The console's load progress: asks the instance to load a model.
 *
 * Polled by chat-console.js; its route needs the console permission and a
 * CSRF token.
 */
class ChatConsoleController implements ContainerInjectionInterface {

  use AutowireTrait;

  public function __construct(protected ApiClient $apiClient) {}

  /**
   * The load's state for the console: ready, loading, or started.
   *
   * The real service only answers 202 {"status":"ok","http_status":202}: the
   * load started and nothing tells when it ends, so polling it cannot end.
   */
  public static function state(ApiResult $result): string {
    return match (TRUE) {
      $result->status === 200 => 'ready',
      ($result->body['state'] ?? NULL) === 'loading' => 'loading',
      default => 'started',
    };
  }

  /**
   * Answers {"status": "ok", "model", "state"} (see state()) or a refusal.
   */
  public function load(Request $request): Response {
    $model = $request->query->get(Contract::CHAT_FIELD_MODEL);
    if (!is_string($model) || preg_match(ChatSettings::MODEL_PATTERN, $model) !== 1) {
      return EndpointResponses::json($request, [
        Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_KO,
        Contract::RESPONSE_FIELD_ERROR => 'model: a model identifier is required.',
      ], 400);
    }
    $result = $this->apiClient->loadModel($model);
    if (!$result->isSuccess()) {
      return EndpointResponses::json($request, [
        Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_KO,
        Contract::RESPONSE_FIELD_ERROR => $result->logSummary(),
      ], 502);
    }
    return EndpointResponses::json($request, [
      Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK,
      Contract::CHAT_RESPONSE_FIELD_MODEL => $model,
      'state' => self::state($result),
    ]);
  }

}
