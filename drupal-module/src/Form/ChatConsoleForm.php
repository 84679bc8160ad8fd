<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Access\CsrfTokenGenerator;
use Drupal\Core\DependencyInjection\AutowireTrait;
use Drupal\Core\Form\FormBase;
use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\Routing\RouteProviderInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Chat\ChatProblem;
use Drupal\sitebeam\Chat\ChatPrompter;
use Drupal\sitebeam\Chat\ChatReply;
use Drupal\sitebeam\Chat\PromptSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Controller\ChatConsoleController;

/**
 * The site team's console: load and prompt any model the instance lists.
 *
 * Not a public endpoint: any listed model and any prompt setting, all through
 * the site, the token staying on the server.
 */
class ChatConsoleForm extends FormBase {

  use AutowireTrait;

  public function __construct(
    protected ApiClient $apiClient,
    protected CredentialsFactory $credentialsFactory,
    protected ChatPrompter $prompter,
    protected CsrfTokenGenerator $csrfToken,
    protected RouteProviderInterface $routeProvider,
  ) {}

  /**
   * {@inheritdoc}
   */
  public function getFormId(): string {
    return 'sitebeam_chat_console';
  }

  /**
   * {@inheritdoc}
   */
  public function buildForm(array $form, FormStateInterface $form_state): array {
    // The instance's list and the load address change: never cached.
    $form['#cache']['max-age'] = 0;
    $listing = $this->apiClient->listModels();
    $models = $listing->models();
    if ($models === []) {
      $form['unavailable'] = [
        '#type' => 'html_tag',
        '#tag' => 'p',
        '#attributes' => ['role' => 'alert', 'class' => ['messages', 'messages--error']],
        '#value' => $listing->isSuccess()
          ? $this->t('The instance lists no model.')
          : $this->messages()->explainModels($listing, $this->credentialsFactory->siteCredentials()->baseUrl()),
      ];
      return $form;
    }

    $form['model'] = [
      '#type' => 'select',
      '#title' => $this->t('Model'),
      '#options' => array_combine($models, $models),
      '#required' => TRUE,
    ];
    $form['load'] = [
      '#type' => 'submit',
      '#value' => $this->t('Load model'),
      '#submit' => ['::loadModel'],
      '#limit_validation_errors' => [['model']],
      '#attributes' => ['data-sitebeam-load' => ''],
    ];
    $form['load_status'] = [
      '#type' => 'html_tag',
      '#tag' => 'p',
      '#attributes' => ['role' => 'status', 'data-sitebeam-load-status' => ''],
      '#value' => '',
    ];
    $form['message'] = [
      '#type' => 'textarea',
      '#title' => $this->t('Message'),
      '#rows' => 4,
      '#maxlength' => Contract::LIMIT_PROMPT_MESSAGE_CHARS,
    ];
    $form['settings'] = [
      '#type' => 'details',
      '#title' => $this->t('Prompt settings'),
      '#description' => $this->t('Leave a setting empty for the API default.'),
      '#tree' => TRUE,
    ];
    foreach (PromptSettings::types() as $name => $type) {
      $form['settings'][$name] = self::settingElement($name, $type);
    }
    $form['actions'] = ['#type' => 'actions'];
    $form['actions']['prompt'] = [
      '#type' => 'submit',
      '#value' => $this->t('Send prompt'),
      '#button_type' => 'primary',
    ];
    $reply = $form_state->get('reply');
    if ($reply instanceof ChatReply) {
      $form['reply'] = $this->replyElement($reply);
    }
    $form['#attached']['library'][] = 'sitebeam/chat_console';
    $form['#attached']['drupalSettings']['sitebeamChatConsole'] = ['loadUrl' => $this->loadUrl()];
    return $form;
  }

  /**
   * The form element of one prompt setting, typed as the API types it.
   */
  public static function settingElement(string $name, string $type): array {
    return match ($type) {
      PromptSettings::BOOLEAN => [
        '#type' => 'select',
        '#title' => $name,
        '#options' => [
          'true' => new TranslatableMarkup('Yes (true)'),
          'false' => new TranslatableMarkup('No (false)'),
        ],
        '#empty_value' => '',
        '#empty_option' => new TranslatableMarkup('- API default -'),
      ],
      PromptSettings::INTEGER => [
        '#type' => 'number',
        '#title' => $name,
        '#min' => 1,
        '#step' => 1,
      ],
      default => [
        '#type' => 'number',
        '#title' => $name,
        '#min' => 0,
        '#step' => 'any',
      ],
    };
  }

  /**
   * {@inheritdoc}
   */
  public function validateForm(array &$form, FormStateInterface $form_state): void {
    if ($form_state->getTriggeringElement()['#submit'] ?? NULL) {
      return;
    }
    if (trim((string) $form_state->getValue('message')) === '') {
      $form_state->setErrorByName('message', $this->t('Type a message to send.'));
    }
    foreach (PromptSettings::types() as $name => $type) {
      $value = PromptSettings::fromInput($name, $form_state->getValue(['settings', $name]));
      if ($value !== NULL && !PromptSettings::isValid($name, $value)) {
        $form_state->setErrorByName("settings][$name", match ($type) {
          PromptSettings::INTEGER => $this->t('The prompt setting %setting must be a whole number of 1 or more.', ['%setting' => $name]),
          PromptSettings::NUMBER => $this->t('The prompt setting %setting must be a number greater than 0.', ['%setting' => $name]),
          default => $this->t('The prompt setting %setting must be true or false.', ['%setting' => $name]),
        });
      }
    }
  }

  /**
   * {@inheritdoc}
   */
  public function submitForm(array &$form, FormStateInterface $form_state): void {
    $form_state->setRebuild();
    $settings = [];
    foreach (array_keys(PromptSettings::types()) as $name) {
      $settings[$name] = PromptSettings::fromInput($name, $form_state->getValue(['settings', $name]));
    }
    $model = (string) $form_state->getValue('model');
    $reply = $this->prompter->prompt($model, trim((string) $form_state->getValue('message')), PromptSettings::toSend($settings));
    if ($reply instanceof ChatReply) {
      $form_state->set('reply', $reply);
      return;
    }
    $form_state->set('reply', NULL);
    $this->messenger()->addError($this->describe($reply, $model));
  }

  /**
   * Submit handler of "Load model" without JavaScript: one load request.
   */
  public function loadModel(array &$form, FormStateInterface $form_state): void {
    $form_state->setRebuild();
    $model = (string) $form_state->getValue('model');
    $result = $this->apiClient->loadModel($model);
    if (!$result->isSuccess()) {
      $this->messenger()->addError($this->messages()->explainModels($result, $this->credentialsFactory->siteCredentials()->baseUrl()));
      return;
    }
    $this->messenger()->addStatus(match (ChatConsoleController::state($result)) {
      'ready' => $this->t('@model is ready.', ['@model' => $model]),
      'loading' => $this->t('@model is loading. Press "Load model" again to see whether it is ready.', ['@model' => $model]),
      default => $this->t('The instance started loading @model. It does not tell when the model is ready: send a prompt, it is answered once the model is loaded.', ['@model' => $model]),
    });
  }

  /**
   * The load route with its CSRF token.
   *
   * Url::toString() would put a placeholder for the token, which only the
   * page's HTML gets replaced, never drupalSettings.
   */
  protected function loadUrl(): string {
    $path = ltrim($this->routeProvider->getRouteByName('sitebeam.chat_console_load')->getPath(), '/');
    return Url::fromUri('base:' . $path, ['query' => ['token' => $this->csrfToken->get($path)]])->toString();
  }

  /**
   * The answer's lines and score.
   */
  protected function replyElement(ChatReply $reply): array {
    $element = [
      '#type' => 'container',
      '#attributes' => ['class' => ['sitebeam-chat-console__reply'], 'aria-live' => 'polite'],
      'title' => [
        '#type' => 'html_tag',
        '#tag' => 'h2',
        '#value' => $this->t('Answer of @model', ['@model' => $reply->model]),
      ],
    ];
    foreach ($reply->lines as $index => $line) {
      $element['line_' . $index] = ['#prefix' => '<p>', '#plain_text' => $line, '#suffix' => '</p>'];
    }
    if ($reply->score !== NULL) {
      $element['score'] = [
        '#type' => 'html_tag',
        '#tag' => 'p',
        '#value' => $this->t('Score: @score', ['@score' => $reply->score]),
      ];
    }
    return $element;
  }

  /**
   * Why a prompt got no answer, for the site's team.
   */
  protected function describe(ChatProblem $problem, string $model): string {
    return (string) match ($problem->code) {
      ChatProblem::MODEL_LOADING => $this->t('@model is still loading: it was asked to load. Try again in @seconds s.', [
        '@model' => $model,
        '@seconds' => $problem->retryAfter,
      ]),
      ChatProblem::RATE_LIMITED => $this->t('The instance is limiting requests (429). Try again in @seconds s.', ['@seconds' => $problem->retryAfter]),
      ChatProblem::NOT_CONFIGURED => $this->t('The instance refused the prompt: check the token, the AI API of the account and the model (details in the sitebeam log).'),
      default => $this->t('The instance did not answer the prompt (details in the sitebeam log).'),
    };
  }

  /**
   * Reports API results as messages.
   */
  protected function messages(): ApiResultMessages {
    return new ApiResultMessages($this->messenger(), $this->getStringTranslation());
  }

}
