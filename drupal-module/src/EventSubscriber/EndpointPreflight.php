<?php

declare(strict_types=1);

namespace Drupal\sitebeam\EventSubscriber;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\EndpointResponses;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\KernelEvents;

/**
 * The CORS pre-flight of the public endpoints (contact form and chat).
 *
 * Core answers every OPTIONS request itself (OptionsRequestSubscriber, before
 * routing): this runs just before it, for the endpoints' paths only.
 */
class EndpointPreflight implements EventSubscriberInterface {

  /**
   * Each endpoint's path and the methods its pre-flight allows.
   */
  public const METHODS = [
    '/sitebeam/contact' => Contract::CONTACT_ALLOWED_METHODS,
    '/sitebeam/chat' => Contract::CHAT_ALLOWED_METHODS,
  ];

  /**
   * {@inheritdoc}
   */
  public static function getSubscribedEvents(): array {
    return [KernelEvents::REQUEST => ['onRequest', 1001]];
  }

  /**
   * Answers 204 to a page of this site, 403 forbidden_origin to any other.
   */
  public function onRequest(RequestEvent $event): void {
    $request = $event->getRequest();
    $methods = self::METHODS[rtrim($request->getPathInfo(), '/')] ?? NULL;
    if (!$request->isMethod('OPTIONS') || $methods === NULL) {
      return;
    }
    $event->setResponse(EndpointResponses::preflight($request, $methods) ?? new JsonResponse([
      Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_KO,
      Contract::RESPONSE_FIELD_ERROR => 'This origin may not use this endpoint.',
      Contract::RESPONSE_FIELD_I18N_CODE => Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN,
    ], Contract::CONTACT_ERROR_STATUS[Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN], ['Cache-Control' => 'no-store, private']));
  }

}
