<?php

declare(strict_types=1);

namespace Drupal\sitebeam\EventSubscriber;

use Drupal\sitebeam\Contract;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\KernelEvents;

/**
 * The CORS pre-flight of the contact endpoint.
 *
 * Core answers every OPTIONS request itself (OptionsRequestSubscriber, before
 * routing): this runs just before it, for the contact path only.
 */
class ContactPreflight implements EventSubscriberInterface {

  public const PATH = '/sitebeam/contact';

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
    if (!$request->isMethod('OPTIONS') || rtrim($request->getPathInfo(), '/') !== self::PATH) {
      return;
    }
    $origin = (string) $request->headers->get('Origin', '');
    if (strcasecmp(rtrim($origin, '/'), $request->getSchemeAndHttpHost()) !== 0) {
      $event->setResponse(new JsonResponse([
        Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_KO,
        Contract::RESPONSE_FIELD_ERROR => 'This origin may not use the contact form.',
        Contract::RESPONSE_FIELD_I18N_CODE => Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN,
      ], Contract::CONTACT_ERROR_STATUS[Contract::CONTACT_ERROR_FORBIDDEN_ORIGIN], ['Cache-Control' => 'no-store, private']));
      return;
    }
    $event->setResponse(new Response('', 204, [
      'Access-Control-Allow-Origin' => $origin,
      'Access-Control-Allow-Methods' => Contract::CONTACT_ALLOWED_METHODS,
      'Access-Control-Allow-Headers' => 'Content-Type',
      'Access-Control-Max-Age' => '600',
      'Cache-Control' => 'no-store, private',
      'Vary' => 'Origin',
    ]));
  }

}
