<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contact\ContactFormToken;
use Drupal\sitebeam\Contact\ContactMessageComposer;
use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactRateLimiter;
use Drupal\sitebeam\Contact\ContactSubmission;
use Drupal\sitebeam\Contact\ContactTicket;
use Drupal\sitebeam\Contact\ContactValidator;
use Drupal\sitebeam\Contract;
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
    protected ContactRateLimiter $rateLimiter,
    protected ContactFormToken $formToken,
    protected ContactTicket $tickets,
    protected LoggerInterface $logger,
    protected ContactResponder $responder,
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
    );
  }

  /**
   * Answers in the protocol's order: a post gets the same answer everywhere.
   */
  public function submit(Request $request): Response {
    if ($request->isMethod('GET')) {
      return $this->isSameOrigin($request)
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
    $input = $problem ?? $this->readInput($request);
    if ($input instanceof ContactProblem) {
      return $this->responder->failure($request, $input);
    }
    if (!$this->formToken->isValid($input[ContactFormToken::FIELD] ?? NULL)) {
      return $this->responder->failure($request, new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN));
    }
    $verdict = ContactValidator::validate($input, $this->tickets->isValid(...));
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
    if (!in_array($this->mediaType($request), ['application/json', 'application/x-www-form-urlencoded'], TRUE)) {
      return new ContactProblem(ContactProblem::UNSUPPORTED_MEDIA_TYPE);
    }
    if (!$this->isSameOrigin($request)) {
      return new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN);
    }
    $length = $request->headers->get('Content-Length');
    if (($length !== NULL && (int) $length > Contract::CONTACT_BODY_MAX_BYTES) || strlen($request->getContent()) > Contract::CONTACT_BODY_MAX_BYTES) {
      return new ContactProblem(ContactProblem::PAYLOAD_TOO_LARGE);
    }
    return NULL;
  }

  /**
   * Decodes a JSON object or a form-encoded body.
   */
  protected function readInput(Request $request): array|ContactProblem {
    if ($this->mediaType($request) === 'application/json') {
      $content = self::markInvalidText($request->getContent());
      return json_decode($content) instanceof \stdClass ? json_decode($content, TRUE) : new ContactProblem(ContactProblem::INVALID_FIELD);
    }
    return $request->request->all();
  }

  /**
   * Replaces invalid UTF-8 and lone surrogate escapes with an escaped NUL.
   *
   * Json_decode() refuses the whole body for either; the NUL then fails the
   * control-character rule of the field that held it, which the answer names.
   */
  protected static function markInvalidText(string $json): string {
    if (!mb_check_encoding($json, 'UTF-8')) {
      $json = (string) preg_replace('/(?:[\x00-\x7F]|[\xC2-\xDF][\x80-\xBF]|\xE0[\xA0-\xBF][\x80-\xBF]|[\xE1-\xEC\xEE\xEF][\x80-\xBF]{2}|\xED[\x80-\x9F][\x80-\xBF]|\xF0[\x90-\xBF][\x80-\xBF]{2}|[\xF1-\xF3][\x80-\xBF]{3}|\xF4[\x80-\x8F][\x80-\xBF]{2})(*SKIP)(*FAIL)|./s', '\\u0000', $json);
    }
    return (string) preg_replace('/\\\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\\\u[dD][89abAB][0-9a-fA-F]{2})\\\\u[dD][c-fC-F][0-9a-fA-F]{2}/', '\\u0000', $json);
  }

  /**
   * The Content-Type without its parameters, in lower case.
   */
  protected function mediaType(Request $request): string {
    return strtolower(trim(explode(';', (string) $request->headers->get('Content-Type', ''))[0]));
  }

  /**
   * A present Origin (or else Referer) must be this site.
   *
   * With neither (a script, curl) the post is judged on its content alone.
   */
  protected function isSameOrigin(Request $request): bool {
    $site = $request->getSchemeAndHttpHost();
    $origin = $request->headers->get('Origin');
    if ($origin !== NULL) {
      return strcasecmp(rtrim($origin, '/'), $site) === 0;
    }
    $referer = $request->headers->get('Referer');
    return $referer === NULL || stripos($referer . '/', $site . '/') === 0;
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
    return match ($result->diagnosis()) {
      ApiResult::NOT_CONFIGURED, ApiResult::TOKEN_WRONG, ApiResult::NOT_ENABLED, ApiResult::SERVICE_DISABLED => new ContactProblem(ContactProblem::NOT_CONFIGURED),
      ApiResult::RATE_LIMITED => new ContactProblem(ContactProblem::RATE_LIMITED, retryAfter: $result->retryAfter ?? 60),
      default => new ContactProblem(ContactProblem::UPSTREAM_FAILED),
    };
  }

}
