<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\Language\LanguageManagerInterface;
use Drupal\Core\Render\RendererInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Consent\ConsentCheckbox;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Contact\ContactFormToken;
use Drupal\sitebeam\Contact\ContactProblem;
use Drupal\sitebeam\Contact\ContactTicket;
use Drupal\sitebeam\Contact\HiddenInput;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\EndpointResponses;
use Drupal\sitebeam\Endpoint\ReturnPage;
use Symfony\Component\HttpFoundation\RedirectResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Answers a contact post: JSON for the widget, redirect or page without it.
 */
class ContactResponder {

  use StringTranslationTrait;

  /**
   * Answers that are JSON whatever the request: the client's kind is unknown.
   */
  private const ALWAYS_JSON = [
    ContactProblem::UNSUPPORTED_MEDIA_TYPE,
    ContactProblem::INVALID_REQUEST,
    ContactProblem::METHOD_NOT_ALLOWED,
  ];

  /**
   * The refusal page's hidden field naming the page the form was on.
   */
  public const BACK_FIELD = 'back';

  /**
   * The fields a refusal page gives back as the visitor typed them.
   */
  private const KEPT_FIELDS = [
    Contract::CONTACT_FIELD_NAME,
    Contract::CONTACT_FIELD_EMAIL,
    Contract::CONTACT_FIELD_SUBJECT,
    Contract::CONTACT_FIELD_MESSAGE,
  ];

  public function __construct(
    TranslationInterface $string_translation,
    protected RendererInterface $renderer,
    protected LanguageManagerInterface $languageManager,
    protected ContactTicket $tickets,
    protected ContactFormToken $formToken,
    protected ConsentSettings $consentSettings,
  ) {
    $this->stringTranslation = $string_translation;
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
   * The answer to a message that was sent, or queued in the outbox.
   *
   * A queued message is answered 202 with "queued": it will be sent when the
   * instance is back (contract/contact-protocol.md), so the visitor is told
   * it was received, not sent; without JavaScript, the form's page comes
   * back with ?sent=1&queued=1 to say the same.
   */
  public function success(Request $request, bool $queued = FALSE): Response {
    $message = $queued ? $this->t('Thanks, we received your message.') : $this->t('Thank you: your message has been sent.');
    if ($this->wantsJson($request)) {
      $body = [Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK];
      if ($queued) {
        $body[Contract::CONTACT_RESPONSE_FIELD_QUEUED] = TRUE;
      }
      return EndpointResponses::json($request, $body + [
        Contract::CONTACT_RESPONSE_FIELD_MESSAGE => (string) $message,
      ], $queued ? 202 : 200);
    }
    $back = $this->formPage($request);
    $back .= (str_contains($back, '?') ? '&' : '?') . Contract::CONTACT_SENT_QUERY_PARAM . '=1';
    if ($queued) {
      $back .= '&' . Contract::CONTACT_RESPONSE_FIELD_QUEUED . '=1';
    }
    return EndpointResponses::noStore(new RedirectResponse($back, 303));
  }

  /**
   * The answer to a refused post: JSON, or the form again with the text kept.
   */
  public function failure(Request $request, ContactProblem $problem): Response {
    $text = (string) $this->describe($problem);
    if ($this->wantsJson($request) || in_array($problem->code, self::ALWAYS_JSON, TRUE) || !$request->isMethod('POST')) {
      return EndpointResponses::refusal($request, $problem, $text, Contract::CONTACT_ALLOWED_METHODS);
    }
    $back = $this->formPage($request);
    $build = [
      '#theme' => 'sitebeam_contact_page',
      '#error' => $text,
      '#back_url' => $back,
      '#lang' => $this->languageManager->getCurrentLanguage()->getId(),
      '#form' => [
        '#theme' => 'sitebeam_contact_form',
        '#action' => Url::fromRoute('sitebeam.contact')->toString(),
        '#values' => $this->keptValues($request),
        '#consent' => $this->consentSettings->contact()?->toTemplate(),
        '#invalid' => $problem->field,
        '#token' => $this->formToken->hiddenField(),
        '#ticket' => $this->tickets->hiddenField(),
        '#back' => HiddenInput::build(self::BACK_FIELD, $back),
      ],
    ];
    $html = (string) $this->renderer->renderInIsolation($build);
    return EndpointResponses::page($html, $problem->status(), EndpointResponses::refusalHeaders($problem));
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
      ContactProblem::INVALID_FIELD => match (TRUE) {
        $problem->field === Contract::CONTACT_FIELD_CONSENT => $this->t('Please tick the consent box to send your message.'),
        isset($labels[$problem->field]) => $this->t('Please check the field "@field".', ['@field' => $labels[$problem->field]]),
        default => $this->t('The form data could not be read. Please reload the page and try again.'),
      },
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
   * What the visitor typed in the form fields of a native post.
   *
   * The consent as whether the box was ticked.
   */
  protected function keptValues(Request $request): array {
    $posted = $request->request->all();
    $kept = [];
    foreach (self::KEPT_FIELDS as $field) {
      $kept[$field] = is_string($posted[$field] ?? NULL) ? $posted[$field] : '';
    }
    $kept[Contract::CONTACT_FIELD_CONSENT] = ConsentCheckbox::isGiven($posted[Contract::CONTACT_FIELD_CONSENT] ?? NULL);
    return $kept;
  }

  /**
   * True for the widget's JSON posts.
   */
  protected function wantsJson(Request $request): bool {
    return $request->getContentTypeFormat() === 'json';
  }

  /**
   * The path of the form's page when it is on this site, else the front page.
   *
   * A post from the refusal page names the form's page in a hidden field:
   * its Referer is the endpoint. Either is the visitor's word, so both are
   * held to this site.
   */
  protected function formPage(Request $request): string {
    $posted = $request->request->all()[self::BACK_FIELD] ?? NULL;
    $page = is_string($posted) ? $posted : (string) $request->headers->get('Referer', '');
    $page = ReturnPage::of($request, $page, 'sitebeam.contact');
    // The marks of an earlier success are not carried back again.
    [$path, $query] = explode('?', $page, 2) + [1 => ''];
    $marks = ['', Contract::CONTACT_SENT_QUERY_PARAM . '=1', Contract::CONTACT_RESPONSE_FIELD_QUEUED . '=1'];
    $kept = array_filter(explode('&', $query), static fn (string $pair): bool => !in_array($pair, $marks, TRUE));
    return $path . ($kept === [] ? '' : '?' . implode('&', $kept));
  }

}
