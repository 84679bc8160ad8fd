<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Contact\ContactFormToken;
use Drupal\sitebeam\Contact\ContactMessageComposer;
use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactSubmission;
use Drupal\sitebeam\Contact\ContactTicket;
use Drupal\sitebeam\Contact\ContactValidator;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\OriginRule;
use Drupal\sitebeam\Endpoint\RateLimiter;
use Drupal\sitebeam\Endpoint\RequestBody;
use Drupal\sitebeam\Mail\AddressParser;
use Psr\Log\LoggerInterface;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The contact endpoint: speaks contract/contact-protocol.md.
 */
class ContactController implements ContainerInjectionInterface {

  public function __construct(
    protected ApiClient $apiClient,
    protected ConfigFactoryInterface $configFactory,
    protected RateLimiter $rateLimiter,
    protected ContactFormToken $formToken,
    protected ContactTicket $tickets,
    protected LoggerInterface $logger,
    protected ContactResponder $responder,
    protected ConsentSettings $consentSettings,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container): static {
    return new static(
      $container->get('sitebeam.api_client'),
      $container->get('config.factory'),
      $container->get('sitebeam.contact_rate_limiter'),
      $container->get('sitebeam.contact_form_token'),
      $container->get('sitebeam.contact_ticket'),
      $container->get('logger.channel.sitebeam'),
      ContactResponder::create($container),
      $container->get('sitebeam.consent_settings'),
    );
  }

  /**
   * Answers in the protocol's order: a post gets the same answer everywhere.
   */
  public function submit(Request $request): Response {
    if ($request->isMethod('GET')) {
      return OriginRule::allows($request)
        ? $this->responder->ticket($request, $this->tickets->issue())
        : $this->responder->failure($request, new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN));
    }
    if (!$request->isMethod('POST')) {
      return $this->responder->failure($request, new ContactProblem(ContactProblem::METHOD_NOT_ALLOWED));
    }
    $settings = $this->configFactory->get('sitebeam.settings');
    // Every post counts, refused ones included: probing costs attempts too.
    $retry_after = $this->rateLimiter->hit($request, (int) $settings->get('contact.flood_limit'), (int) $settings->get('contact.flood_window'));
    if ($retry_after !== NULL) {
      return $this->responder->failure($request, new ContactProblem(ContactProblem::RATE_LIMITED, retryAfter: $retry_after));
    }
    $problem = $this->requestProblem($request);
    $input = $problem ? NULL : RequestBody::fields($request);
    if ($input === NULL) {
      return $this->responder->failure($request, $problem ?? new ContactProblem(ContactProblem::INVALID_FIELD));
    }
    if (!$this->formToken->isValid($input[ContactFormToken::FIELD] ?? NULL)) {
      return $this->responder->failure($request, new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN));
    }
    $verdict = ContactValidator::validate($input, $this->tickets->isValid(...), $this->consentSettings->contact());
    if ($verdict instanceof ContactProblem) {
      return $this->responder->failure($request, $verdict);
    }
    $problem = $this->send($verdict);
    return $problem ? $this->responder->failure($request, $problem) : $this->responder->success($request);
  }

  /**
   * The Host, the media type, the origin and the body size, unread body.
   */
  protected function requestProblem(Request $request): ?ContactProblem {
    // Symfony before 7 lets some malformed names through, such as "[::1".
    if (!preg_match('/^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/D', (string) $request->headers->get('Host'))) {
      return new ContactProblem(ContactProblem::INVALID_REQUEST);
    }
    if (!RequestBody::isSupported($request)) {
      return new ContactProblem(ContactProblem::UNSUPPORTED_MEDIA_TYPE);
    }
    if (!OriginRule::allows($request)) {
      return new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN);
    }
    if (RequestBody::isTooLarge($request, Contract::CONTACT_BODY_MAX_BYTES)) {
      return new ContactProblem(ContactProblem::PAYLOAD_TOO_LARGE);
    }
    return NULL;
  }

  /**
   * Sends the message to the configured recipient; NULL when it went out.
   */
  protected function send(ContactSubmission $submission): ?ContactProblem {
    $site = $this->configFactory->get('system.site');
    $recipient = trim((string) $this->configFactory->get('sitebeam.settings')->get('contact.recipient'));
    $recipient = $recipient !== '' ? $recipient : (string) $site->get('mail');
    if (!AddressParser::isValidEmail($recipient)) {
      $this->logger->error('Contact message not sent: no valid recipient is configured.');
      return new ContactProblem(ContactProblem::NOT_CONFIGURED);
    }
    $result = $this->apiClient->sendEmail(ContactMessageComposer::compose($submission, $recipient, (string) $site->get('name')));
    if ($result->isSuccess()) {
      return NULL;
    }
    $this->logger->error('Contact message not sent by the API: @result', ['@result' => $result->logSummary()]);
    $refused = array_key_first($result->refusedFields());
    if ($refused !== NULL) {
      // Sending it again cannot help: the visitor's field, or the site's setup.
      $field = ContactMessageComposer::visitorField((string) $refused);
      return $field !== NULL ? new ContactProblem(ContactProblem::INVALID_FIELD, $field) : new ContactProblem(ContactProblem::NOT_CONFIGURED);
    }
    return match ($result->diagnosis()) {
      ApiResult::NOT_CONFIGURED,
      ApiResult::TOKEN_WRONG,
      ApiResult::ACCOUNT_NOT_CONFIRMED,
      ApiResult::NOT_ENABLED,
      ApiResult::SERVICE_DISABLED => new ContactProblem(ContactProblem::NOT_CONFIGURED),
      ApiResult::RATE_LIMITED => new ContactProblem(ContactProblem::RATE_LIMITED, retryAfter: $result->retryAfter ?? 60),
      default => new ContactProblem(ContactProblem::UPSTREAM_FAILED),
    };
  }

}
