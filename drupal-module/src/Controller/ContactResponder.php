<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Component\Utility\Html;
use Drupal\Core\DependencyInjection\ContainerInjectionInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\EndpointResponses;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\RedirectResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Answers a contact post: JSON for the widget, redirect or page without it.
 */
class ContactResponder implements ContainerInjectionInterface {

  use StringTranslationTrait;

  /**
   * Answers that are JSON whatever the request: the client's kind is unknown.
   */
  private const ALWAYS_JSON = [
    ContactProblem::UNSUPPORTED_MEDIA_TYPE,
    ContactProblem::INVALID_REQUEST,
    ContactProblem::METHOD_NOT_ALLOWED,
  ];

  public function __construct(TranslationInterface $string_translation) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container): static {
    return new static($container->get('string_translation'));
  }

  /**
   * A fresh fill-time ticket, for the widget's GET.
   */
  public function ticket(Request $request, string $ticket): Response {
    return EndpointResponses::json($request, [
      Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK,
      Contract::CONTACT_RESPONSE_FIELD_TICKET => $ticket,
    ]);
  }

  /**
   * The answer to a message that was sent.
   */
  public function success(Request $request): Response {
    $message = $this->t('Thank you: your message has been sent.');
    if ($this->wantsJson($request)) {
      return EndpointResponses::json($request, [
        Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK,
        Contract::CONTACT_RESPONSE_FIELD_MESSAGE => (string) $message,
      ]);
    }
    $back = $this->formPage($request);
    $back .= (str_contains($back, '?') ? '&' : '?') . Contract::CONTACT_SENT_QUERY_PARAM . '=1';
    return EndpointResponses::noStore(new RedirectResponse($back, 303));
  }

  /**
   * The answer to a refused post: JSON, or a page with a way back.
   */
  public function failure(Request $request, ContactProblem $problem): Response {
    $text = (string) $this->describe($problem);
    if ($this->wantsJson($request) || in_array($problem->code, self::ALWAYS_JSON, TRUE) || !$request->isMethod('POST')) {
      return EndpointResponses::refusal($request, $problem, $text, Contract::CONTACT_ALLOWED_METHODS);
    }
    $page = sprintf(
      '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>%s</title></head><body><h1>%s</h1><p>%s</p><p><a href="%s">%s</a></p></body></html>',
      Html::escape((string) $this->t('Message not sent')),
      Html::escape((string) $this->t('Your message was not sent')),
      Html::escape($text),
      Html::escape($this->formPage($request)),
      Html::escape((string) $this->t('Back to the form (your text is kept when you use the Back button)')),
    );
    return EndpointResponses::noStore(new Response($page, $problem->status(), EndpointResponses::refusalHeaders($problem) + ['Content-Type' => 'text/html; charset=UTF-8']));
  }

  /**
   * Words a visitor may read: never the API's own text or the recipient.
   */
  public function describe(ContactProblem $problem): TranslatableMarkup {
    $labels = [
      Contract::CONTACT_FIELD_NAME => $this->t('Your name'),
      Contract::CONTACT_FIELD_EMAIL => $this->t('Your email address'),
      Contract::CONTACT_FIELD_SUBJECT => $this->t('Subject'),
      Contract::CONTACT_FIELD_MESSAGE => $this->t('Message'),
    ];
    return match ($problem->code) {
      ContactProblem::INVALID_FIELD => isset($labels[$problem->field])
        ? $this->t('Please check the field "@field".', ['@field' => $labels[$problem->field]])
        : $this->t('The form data could not be read. Please reload the page and try again.'),
      ContactProblem::INVALID_REQUEST => $this->t('The request could not be read.'),
      ContactProblem::METHOD_NOT_ALLOWED => $this->t('Send the form with POST.'),
      ContactProblem::SPAM_SUSPECTED => $this->t('Your message looks automated and was not sent. Please wait a few seconds and send it again.'),
      ContactProblem::FORBIDDEN_ORIGIN => $this->t('This form could not be verified. Please reload the page and send it again.'),
      ContactProblem::PAYLOAD_TOO_LARGE => $this->t('Your message is too long.'),
      ContactProblem::UNSUPPORTED_MEDIA_TYPE => $this->t('The form was sent in a format this site does not accept.'),
      ContactProblem::RATE_LIMITED => $this->t('You have sent several messages in a short time. Please try again later.'),
      ContactProblem::NOT_CONFIGURED => $this->t('The contact form is not available at the moment. Please try again later.'),
      ContactProblem::UPSTREAM_FAILED => $this->t('Your message could not be sent just now. Please try again in a few minutes.'),
    };
  }

  /**
   * True for the widget's JSON posts.
   */
  protected function wantsJson(Request $request): bool {
    return $request->getContentTypeFormat() === 'json';
  }

  /**
   * The page the form came from when it is on this site, else the front page.
   */
  protected function formPage(Request $request): string {
    $referer = (string) $request->headers->get('Referer', '');
    $base = $request->getSchemeAndHttpHost();
    if ($referer !== '' && str_starts_with($referer, $base . '/')) {
      return rtrim((string) preg_replace('/([?&])sent=1(&|$)/', '$1', $referer), '?&');
    }
    return Url::fromRoute('<front>', [], ['absolute' => TRUE])->toString();
  }

}
