<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\DependencyInjection\AutowireTrait;
use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\sitebeam\Chat\ChatProblem;
use Drupal\sitebeam\Chat\ChatPrompter;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Chat\ChatValidator;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\OriginRule;
use Drupal\sitebeam\Endpoint\RateLimiter;
use Drupal\sitebeam\Endpoint\RequestBody;
use Symfony\Component\DependencyInjection\Attribute\Autowire;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The chat endpoint: speaks contract/chat-protocol.md.
 */
class ChatController implements ContainerInjectionInterface {

  use AutowireTrait;

  public function __construct(
    protected ChatSettings $settings,
    #[Autowire(service: 'sitebeam.chat_rate_limiter')]
    protected RateLimiter $rateLimiter,
    protected ChatPrompter $prompter,
    protected ChatResponder $responder,
    protected DailyChatBudget $dailyBudget,
    protected ConsentSettings $consentSettings,
  ) {}

  /**
   * Answers in the protocol's order: a request gets the same answer everywhere.
   */
  public function handle(Request $request): Response {
    if ($request->isMethod('GET')) {
      return $this->models($request);
    }
    if (!$request->isMethod('POST')) {
      return $this->responder->failure($request, new ChatProblem(ChatProblem::METHOD_NOT_ALLOWED));
    }
    // Every post counts, refused ones included: probing costs attempts too.
    $retry_after = $this->rateLimiter->hit($request, $this->settings->rateLimit(), $this->settings->rateWindow());
    if ($retry_after !== NULL) {
      return $this->responder->failure($request, new ChatProblem(ChatProblem::RATE_LIMITED, retryAfter: $retry_after));
    }
    $models = $this->settings->models();
    $problem = match (TRUE) {
      !RequestBody::isSupported($request) => new ChatProblem(ChatProblem::UNSUPPORTED_MEDIA_TYPE),
      !OriginRule::allows($request) => new ChatProblem(ChatProblem::FORBIDDEN_ORIGIN),
      $models === [] => new ChatProblem(ChatProblem::NOT_CONFIGURED),
      RequestBody::isTooLarge($request, Contract::CHAT_BODY_MAX_BYTES) => new ChatProblem(ChatProblem::PAYLOAD_TOO_LARGE),
      default => NULL,
    };
    $input = $problem ? [] : RequestBody::fields($request);
    if ($problem || $input === NULL) {
      return $this->responder->failure($request, $problem ?? new ChatProblem(ChatProblem::INVALID_FIELD));
    }
    $prompt = ChatValidator::validate($input, $models, $this->consentSettings->chat());
    if ($prompt instanceof ChatProblem) {
      return $this->responder->failure($request, $prompt);
    }
    // Only messages that would reach the model spend the owner's day.
    $daily_limit = $this->settings->dailyLimit();
    $closed_for = $daily_limit === NULL ? NULL : $this->dailyBudget->take($daily_limit);
    if ($closed_for !== NULL) {
      return $this->responder->failure($request, new ChatProblem(ChatProblem::DAILY_LIMIT_REACHED, retryAfter: $closed_for));
    }
    $reply = $this->prompter->prompt($prompt->model, $prompt->message, $this->settings->promptSettings());
    return $reply instanceof ChatProblem
      ? $this->responder->failure($request, $reply)
      : $this->responder->success($request, $reply, $prompt->message);
  }

  /**
   * GET: the allowed models, the first being the default.
   */
  protected function models(Request $request): Response {
    $models = $this->settings->models();
    return match (TRUE) {
      !OriginRule::allows($request) => $this->responder->failure($request, new ChatProblem(ChatProblem::FORBIDDEN_ORIGIN)),
      $models === [] => $this->responder->failure($request, new ChatProblem(ChatProblem::NOT_CONFIGURED)),
      default => $this->responder->models($request, $models),
    };
  }

}
