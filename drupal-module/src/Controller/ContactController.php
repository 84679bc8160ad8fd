<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Database\DatabaseException;
use Drupal\Core\DependencyInjection\AutowireTrait;
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
use Drupal\sitebeam\Outbox\DeliveryState;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxFullException;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\Outbox\OutboxSender;
use Psr\Log\LoggerInterface;
use Symfony\Component\DependencyInjection\Attribute\Autowire;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * The contact endpoint: speaks contract/contact-protocol.md.
 */
class ContactController implements ContainerInjectionInterface {

  use AutowireTrait;

  /**
   * The message id a contact message has in the outbox and the log.
   */
  public const MAIL_ID = 'sitebeam_contact';

  /**
   * The longest Retry-After passed on to a visitor: an hour.
   */
  public const RETRY_AFTER_MAX_S = Contract::OUTBOX_MAX_RETRY_S;

  public function __construct(
    protected ApiClient $apiClient,
    protected ConfigFactoryInterface $configFactory,
    #[Autowire(service: 'sitebeam.contact_rate_limiter')]
    protected RateLimiter $rateLimiter,
    protected ContactFormToken $formToken,
    protected ContactTicket $tickets,
    #[Autowire(service: 'logger.channel.sitebeam')]
    protected LoggerInterface $logger,
    protected ContactResponder $responder,
    protected ConsentSettings $consentSettings,
    protected Outbox $outbox,
    protected OutboxSender $sender,
    protected DeliveryState $deliveryState,
  ) {}

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
    $outcome = $this->send($verdict);
    return $outcome instanceof ContactProblem ? $this->responder->failure($request, $outcome) : $this->responder->success($request, $outcome);
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
   * Sends the message to the configured recipient.
   *
   * @return \Drupal\sitebeam\Contact\ContactProblem|bool
   *   Why it was not sent; else FALSE when it went out, TRUE when the
   *   instance failed for a passing reason (or the circuit breaker is open)
   *   and it waits in the outbox.
   */
  protected function send(ContactSubmission $submission): ContactProblem|bool {
    $site = $this->configFactory->get('system.site');
    $recipient = trim((string) $this->configFactory->get('sitebeam.settings')->get('contact.recipient'));
    $recipient = $recipient !== '' ? $recipient : (string) $site->get('mail');
    if (!AddressParser::isValidEmail($recipient)) {
      $this->logger->error('Contact message not sent: no valid recipient is configured.');
      return new ContactProblem(ContactProblem::NOT_CONFIGURED);
    }
    $payload = ContactMessageComposer::compose($submission, $recipient, (string) $site->get('name'));
    if ($this->deliveryState->breakerOpen()) {
      $reason = $this->deliveryState->heldReason();
      $until = $this->deliveryState->get()['breaker_until'];
      return $this->keep(fn (): int => $this->outbox->hold($payload, self::MAIL_ID, $reason, $until, OutboxItem::KIND_CONTACT, $submission->email), $reason)
        ?: new ContactProblem(ContactProblem::UPSTREAM_FAILED);
    }
    $result = $this->apiClient->sendEmail($payload);
    $this->sender->noteResult($result);
    if ($result->isSuccess()) {
      return FALSE;
    }
    if ($result->isPassingFailure() && $this->keep(fn (): int => $this->outbox->defer($payload, self::MAIL_ID, $result, 1, OutboxItem::KIND_CONTACT, $submission->email), $result->logSummary())) {
      return TRUE;
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
      ApiResult::UNSAFE_ADDRESS,
      ApiResult::PRIVATE_ADDRESS,
      ApiResult::TOKEN_WRONG,
      ApiResult::ACCOUNT_NOT_CONFIRMED,
      ApiResult::NOT_ENABLED,
      ApiResult::SERVICE_DISABLED => new ContactProblem(ContactProblem::NOT_CONFIGURED),
      // The instance's own wait, within reason: a visitor is not told a day.
      ApiResult::RATE_LIMITED => new ContactProblem(ContactProblem::RATE_LIMITED, retryAfter: min(max($result->retryAfter ?? 60, 1), self::RETRY_AFTER_MAX_S)),
      default => new ContactProblem(ContactProblem::UPSTREAM_FAILED),
    };
  }

  /**
   * Keeps the message in the outbox; FALSE when it could not be kept.
   *
   * Beyond the contact messages' share of the outbox, or on any error of
   * its storage, the visitor is asked to try again (never told it will be
   * sent): logged, never an error page.
   *
   * @param callable $store
   *   Stores it: Outbox::defer() or Outbox::hold().
   * @param string $why
   *   Why it waits, for the log.
   */
  protected function keep(callable $store, string $why): bool {
    try {
      $store();
    }
    catch (OutboxFullException | DatabaseException | \JsonException $e) {
      $this->logger->error('Contact message not sent by the API (@result) and not kept for later: @reason', [
        '@result' => $why,
        '@reason' => $e->getMessage(),
      ]);
      return FALSE;
    }
    $this->logger->warning('Contact message waits in the outbox: @result', ['@result' => $why]);
    return TRUE;
  }

}
