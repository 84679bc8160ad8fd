<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\Core\Flood\FloodInterface;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contact\ContactFormToken;
use Drupal\sitebeam\Contact\ContactMessageComposer;
use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactSubmission;
use Drupal\sitebeam\Contact\ContactValidator;
use Drupal\sitebeam\Mail\AddressParser;
use Psr\Log\LoggerInterface;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The contact endpoint: speaks snippet/src/form/PROTOCOL.md.
 */
class ContactController implements ContainerInjectionInterface {

  public const FLOOD_EVENT = 'sitebeam.contact';

  public function __construct(
    protected ApiClient $apiClient,
    protected ConfigFactoryInterface $configFactory,
    protected FloodInterface $flood,
    protected ContactFormToken $formToken,
    protected TimeInterface $time,
    protected LoggerInterface $logger,
    protected ContactResponder $responder,
  ) {}

  public static function create(ContainerInterface $container): static {
    return new static(
      $container->get('sitebeam.api_client'),
      $container->get('config.factory'),
      $container->get('flood'),
      $container->get('sitebeam.contact_form_token'),
      $container->get('datetime.time'),
      $container->get('logger.channel.sitebeam'),
      ContactResponder::create($container),
    );
  }

  public function submit(Request $request): Response {
    if (!$request->isMethod('POST')) {
      return $this->responder->methodNotAllowed();
    }
    $settings = $this->configFactory->get('sitebeam.settings');
    $window = (int) $settings->get('contact.flood_window');
    // Every post counts, refused ones included: probing costs attempts too.
    if (!$this->flood->isAllowed(self::FLOOD_EVENT, (int) $settings->get('contact.flood_limit'), $window)) {
      return $this->responder->failure($request, new ContactProblem(ContactProblem::RATE_LIMITED, retryAfter: $window));
    }
    $this->flood->register(self::FLOOD_EVENT, $window);

    $input = $this->readInput($request);
    if ($input instanceof ContactProblem) {
      return $this->responder->failure($request, $input);
    }
    if (!$this->isSameOrigin($request) || !$this->formToken->isValid($input[ContactFormToken::FIELD] ?? NULL)) {
      return $this->responder->failure($request, new ContactProblem(ContactProblem::FORBIDDEN_ORIGIN));
    }
    $verdict = ContactValidator::validate($input, (int) floor($this->time->getCurrentMicroTime() * 1000));
    if ($verdict instanceof ContactProblem) {
      return $this->responder->failure($request, $verdict);
    }
    $problem = $this->send($verdict);
    return $problem ? $this->responder->failure($request, $problem) : $this->responder->success($request);
  }

  /**
   * Decodes a JSON or form-encoded body of at most 64 KiB.
   */
  protected function readInput(Request $request): array|ContactProblem {
    $content = $request->getContent();
    if (strlen($content) > ContactValidator::MAX_BODY_BYTES) {
      return new ContactProblem(ContactProblem::PAYLOAD_TOO_LARGE);
    }
    $format = $request->getContentTypeFormat();
    if ($format === 'json') {
      $decoded = json_decode($content, TRUE);
      return is_array($decoded) && !array_is_list($decoded) ? $decoded : new ContactProblem(ContactProblem::INVALID_FIELD);
    }
    if ($format === 'form') {
      return $request->request->all();
    }
    return new ContactProblem(ContactProblem::UNSUPPORTED_MEDIA_TYPE);
  }

  /**
   * A present Origin (or else Referer) must be this site; with neither (a
   * script, curl) the post is judged on its content alone.
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
