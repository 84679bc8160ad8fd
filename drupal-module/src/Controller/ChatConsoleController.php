<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\EndpointResponses;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The console's load progress: asks the instance to load a model.
 *
 * Polled by chat-console.js; its route needs the console permission and a
 * CSRF token.
 */
class ChatConsoleController implements ContainerInjectionInterface {

  public function __construct(protected ApiClient $apiClient) {}

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container): static {
    return new static($container->get('sitebeam.api_client'));
  }

  /**
   * Answers {"status": "ok", "model", "state": "loading"|"ready"} or a refusal.
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
      'state' => $result->status === 200 ? 'ready' : 'loading',
    ]);
  }

}
