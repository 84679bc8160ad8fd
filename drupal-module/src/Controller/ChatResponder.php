<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Core\Language\LanguageManagerInterface;
use Drupal\Core\Render\RendererInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Chat\ChatProblem;
use Drupal\sitebeam\Chat\ChatReply;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Consent\ConsentCheckbox;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Endpoint\EndpointResponses;
use Drupal\sitebeam\Endpoint\RequestBody;
use Drupal\sitebeam\Endpoint\ReturnPage;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Answers the chat: JSON for the widget, a page for a plain form post.
 */
class ChatResponder {

  use StringTranslationTrait;

  public function __construct(
    TranslationInterface $string_translation,
    protected RendererInterface $renderer,
    protected ChatSettings $settings,
    protected LanguageManagerInterface $languageManager,
    protected ConsentSettings $consentSettings,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * The allowed models, for the widget's GET.
   */
  public function models(Request $request, array $models): Response {
    return EndpointResponses::json($request, [
      Contract::RESPONSE_FIELD_STATUS => Contract::STATUS_OK,
      Contract::CHAT_RESPONSE_FIELD_MODELS => $models,
    ]);
  }

  /**
   * The model's answer: JSON, or the page with the form again.
   */
  public function success(Request $request, ChatReply $reply, string $asked): Response {
    if (!$this->isFormPost($request)) {
      return EndpointResponses::json($request, $reply->toArray());
    }
    return $this->page($request, 200, [
      '#reply' => $reply,
      '#asked' => $asked,
      '#model' => $reply->model,
    ]);
  }

  /**
   * A refusal: JSON, or the page naming the problem with the message kept.
   *
   * The message is kept whatever the refusal, the rate limit's included,
   * which comes before the endpoint reads the post.
   */
  public function failure(Request $request, ChatProblem $problem): Response {
    $text = (string) $this->describe($problem);
    if (!$this->isFormPost($request)) {
      return EndpointResponses::refusal($request, $problem, $text, Contract::CHAT_ALLOWED_METHODS);
    }
    $input = $request->request->all();
    $kept = static fn (string $field): string => is_string($input[$field] ?? NULL) ? $input[$field] : '';
    return $this->page($request, $problem->status(), [
      '#error' => $text,
      '#message' => $kept(Contract::CHAT_FIELD_MESSAGE),
      '#model' => $kept(Contract::CHAT_FIELD_MODEL),
      '#invalid' => (string) $problem->field,
    ], EndpointResponses::refusalHeaders($problem));
  }

  /**
   * Words a visitor may read: never the API's own text.
   */
  public function describe(ChatProblem $problem): TranslatableMarkup {
    return match ($problem->code) {
      ChatProblem::INVALID_FIELD => match ($problem->field) {
        Contract::CHAT_FIELD_MESSAGE => $this->t('Please type a message of at most @max characters, without control characters.', ['@max' => Contract::CHAT_MESSAGE_MAX_CHARS]),
        Contract::CHAT_FIELD_MODEL => $this->t('Please choose one of the models offered.'),
        Contract::CHAT_FIELD_CONSENT => $this->t('Please tick the consent box to send your message.'),
        default => $this->t('The message could not be read.'),
      },
      ChatProblem::SPAM_SUSPECTED => $this->t('The message looks automated and was not sent.'),
      ChatProblem::FORBIDDEN_ORIGIN => $this->t('This page may not use this chat. Please reload the page and try again.'),
      ChatProblem::METHOD_NOT_ALLOWED => $this->t('Send the message with POST.'),
      ChatProblem::PAYLOAD_TOO_LARGE => $this->t('The message is too large.'),
      ChatProblem::UNSUPPORTED_MEDIA_TYPE => $this->t('The message must be sent as JSON or as a regular form.'),
      ChatProblem::RATE_LIMITED => $this->t('Too many messages were sent. Please wait a minute and try again.'),
      ChatProblem::DAILY_LIMIT_REACHED => $this->t('The chat is closed for today. Please come back tomorrow.'),
      ChatProblem::MODEL_LOADING => $this->t('The model is warming up. Please send the message again in a few seconds.'),
      ChatProblem::NOT_CONFIGURED => $this->t('The chat is not available right now.'),
      ChatProblem::UPSTREAM_FAILED => $this->t('The model could not answer right now. Please try again in a moment.'),
    };
  }

  /**
   * True for a native form post: it gets a page, everything else JSON.
   */
  protected function isFormPost(Request $request): bool {
    return $request->isMethod('POST') && RequestBody::mediaType($request) === RequestBody::FORM;
  }

  /**
   * The page a visitor without JavaScript gets, with the form again.
   *
   * The consent box stays as the visitor left it.
   */
  protected function page(Request $request, int $status, array $variables, array $headers = []): Response {
    $build = [
      '#theme' => 'sitebeam_chat_page',
      '#action' => Url::fromRoute('sitebeam.chat')->toString(),
      '#models' => $this->settings->models(),
      '#consent' => $this->consentSettings->chat()?->toTemplate(),
      '#consent_given' => ConsentCheckbox::isGiven($request->request->all()[Contract::CHAT_FIELD_CONSENT] ?? NULL),
      '#back_url' => $this->backUrl($request),
      '#lang' => $this->languageManager->getCurrentLanguage()->getId(),
    ] + $variables;
    $html = (string) $this->renderer->renderInIsolation($build);
    return EndpointResponses::page($html, $status, $headers);
  }

  /**
   * The site page the post came from, else the front page.
   */
  protected function backUrl(Request $request): string {
    return ReturnPage::of($request, (string) $request->headers->get('Referer', ''), 'sitebeam.chat');
  }

}
