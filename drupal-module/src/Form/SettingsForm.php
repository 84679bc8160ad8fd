<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Config\TypedConfigManagerInterface;
use Drupal\Core\DependencyInjection\AutowireTrait;
use Drupal\Core\Entity\EntityTypeManagerInterface;
use Drupal\Core\Form\ConfigFormBase;
use Drupal\Core\Form\ConfigTarget;
use Drupal\Core\Form\FormStateInterface;
use Drupal\Core\Form\RedundantEditableConfigNamesTrait;
use Drupal\Core\Session\AccountInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Api\Credentials;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Chat\DailyChatBudget;
use Drupal\sitebeam\Chat\PromptSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Mail\MailerSwitch;
use Drupal\sitebeam\Settings\SettingsValidator;
use Drupal\sitebeam\Tracker\KeptQuery;

/**
 * Settings at /admin/config/services/sitebeam.
 */
class SettingsForm extends ConfigFormBase {

  use AutowireTrait;
  use RedundantEditableConfigNamesTrait;

  private const CONFIG = 'sitebeam.settings';

  /**
   * The largest outbox, in MiB: 1 TiB (the setting's range).
   */
  private const MAX_OUTBOX_MIB = 1048576;

  public function __construct(
    ConfigFactoryInterface $config_factory,
    TypedConfigManagerInterface $typed_config_manager,
    protected CredentialsFactory $credentialsFactory,
    protected ApiClient $apiClient,
    protected MailerSwitch $mailerSwitch,
    protected EntityTypeManagerInterface $entityTypeManager,
    protected AccountInterface $currentUser,
    protected DailyChatBudget $dailyBudget,
  ) {
    parent::__construct($config_factory, $typed_config_manager);
  }

  /**
   * {@inheritdoc}
   */
  public function getFormId(): string {
    return 'sitebeam_settings';
  }

  /**
   * {@inheritdoc}
   */
  public function buildForm(array $form, FormStateInterface $form_state): array {
    $form['connection'] = [
      '#type' => 'details',
      '#title' => $this->t('Instance'),
      '#open' => TRUE,
    ];
    $form['connection']['base_url'] = [
      '#type' => 'url',
      '#title' => $this->t('Instance base URL'),
      '#description' => $this->t('For example https://api.example.com. It must use https (the token is sent to it), except for localhost and 127.0.0.1.'),
      '#config_target' => self::CONFIG . ':base_url',
    ];
    $form['connection'] += $this->tokenElements();
    $form['connection']['website'] = [
      '#type' => 'textfield',
      '#title' => $this->t('Website name'),
      '#description' => $this->t('The name visits are recorded under. Leave empty to use the host of each page.'),
      '#placeholder' => $this->getRequest()->getHost(),
      '#maxlength' => 255,
      '#config_target' => self::CONFIG . ':website',
    ];

    $form['tracker'] = [
      '#type' => 'details',
      '#title' => $this->t('Visit tracker'),
      '#open' => TRUE,
    ];
    $form['tracker']['tracker_enabled'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('Add the tracker to pages'),
      '#config_target' => self::CONFIG . ':tracker.enabled',
    ];
    $form['tracker']['tracker_respect_dnt'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('Respect Do Not Track and Global Privacy Control'),
      '#config_target' => self::CONFIG . ':tracker.respect_dnt',
    ];
    $form['tracker']['tracker_noscript'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('Count visitors without JavaScript with an invisible image'),
      '#config_target' => self::CONFIG . ':tracker.noscript',
    ];
    $form['tracker']['tracker_wait_for_consent'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('Wait for consent'),
      '#description' => $this->t('Send nothing, and leave out the image for visitors without JavaScript, until your consent manager calls <code>sitebeam.consent(true)</code> for this visitor.'),
      '#config_target' => self::CONFIG . ':tracker.wait_for_consent',
    ];
    $form['tracker']['tracker_keep_query'] = [
      '#type' => 'textfield',
      '#title' => $this->t('Keep query parameters'),
      '#description' => $this->t('Page addresses are recorded without their query string, which may hold reset tokens or email addresses. Leave empty to keep only the campaign parameters (utm_source, utm_medium, utm_campaign, utm_term, utm_content); list the parameters to keep, separated by commas (for example <code>ref,lang</code>; list the campaign ones too if you want them); or <code>*</code> to keep the whole query string. Visitors without JavaScript are recorded with the site address only, unless <code>*</code>.'),
      '#placeholder' => 'utm_source,utm_medium,utm_campaign,utm_term,utm_content',
      '#config_target' => new ConfigTarget(self::CONFIG, 'tracker.keep_query', toConfig: KeptQuery::class . '::fromInput'),
    ];
    $form['tracker']['visibility_roles'] = [
      '#type' => 'checkboxes',
      '#title' => $this->t('Roles not tracked'),
      '#options' => $this->roleOptions(),
      '#config_target' => new ConfigTarget(self::CONFIG, 'visibility.roles', toConfig: static::class . '::checkedKeys'),
    ];
    $form['tracker']['visibility_paths'] = [
      '#type' => 'textarea',
      '#title' => $this->t('Paths not tracked'),
      '#description' => $this->t('One path per line, starting with a slash; * is a wildcard, for example /user/*/edit. Administration pages are never tracked.'),
      '#rows' => 5,
      '#config_target' => new ConfigTarget(self::CONFIG, 'visibility.paths', fromConfig: static::class . '::linesFromList', toConfig: SettingsValidator::class . '::pathLines'),
    ];

    $form['mail'] = [
      '#type' => 'details',
      '#title' => $this->t('Site mail'),
      '#open' => TRUE,
    ];
    $form['mail']['mail_route'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('Send all site mail through the API'),
      '#description' => $this->t('Makes Sitebeam the default mailer of the site. Turning this off gives back the mailer used before (now: %mailer).', ['%mailer' => $this->mailerSwitch->isActive() ? $this->mailerSwitch->previousMailerId() : $this->config('system.mail')->get('interface.default')]),
      '#config_target' => self::CONFIG . ':mail.route',
    ];
    $form['mail']['mail_fallback'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('When the API fails, hand the message to the previous mailer'),
      '#description' => $this->t('Off: a message the API refuses is logged in the sitebeam channel and reported as not sent. A message the instance fails to take for a passing reason (unreachable, time-out, rate limit, server error) waits in the outbox instead.'),
      '#config_target' => self::CONFIG . ':mail.fallback',
    ];
    $form['mail']['outbox_lifetime'] = [
      '#type' => 'number',
      '#title' => $this->t('Keep trying a waiting message for'),
      '#field_suffix' => $this->t('hours'),
      '#min' => 1,
      '#max' => 720,
      '#description' => $this->t('The <a href=":url">outbox</a> sends waiting mail on cron and after page requests, oldest first, past any mail that keeps failing; after this time a message is given up, logged and shown as failed. Run cron every minute for a first retry within a minute.', [':url' => Url::fromRoute('sitebeam.outbox')->toString()]),
      '#config_target' => new ConfigTarget(self::CONFIG, 'mail.outbox.lifetime', fromConfig: static::class . '::hoursFromSeconds', toConfig: static::class . '::secondsFromHours'),
    ];
    $form['mail']['outbox_max_mails'] = [
      '#type' => 'number',
      '#title' => $this->t('Messages the outbox holds at most'),
      '#min' => 1,
      '#max' => 1000000,
      '#config_target' => self::CONFIG . ':mail.outbox.max_mails',
    ];
    $form['mail']['outbox_max_bytes'] = [
      '#type' => 'number',
      '#title' => $this->t('Size of the outbox at most'),
      '#field_suffix' => $this->t('MiB'),
      '#min' => 1,
      '#max' => self::MAX_OUTBOX_MIB,
      '#description' => $this->t('Beyond either cap a new message fails at once, as when the outbox is off, instead of filling the database.'),
      '#config_target' => new ConfigTarget(self::CONFIG, 'mail.outbox.max_bytes', fromConfig: static::class . '::mebibytesFromBytes', toConfig: static::class . '::bytesFromMebibytes'),
    ];
    $form['mail']['outbox_contact_share'] = [
      '#type' => 'number',
      '#title' => $this->t('Share of the outbox for contact messages'),
      '#field_suffix' => '%',
      '#min' => 0,
      '#max' => 100,
      '#description' => $this->t("Contact-form messages may fill this much of the outbox (of both caps), so that a flood of them never leaves the site's own mail, such as password resets, without room. Beyond it a visitor is asked to try again later."),
      '#config_target' => self::CONFIG . ':mail.outbox.contact_share',
    ];
    $form['mail']['outbox_retention_days'] = [
      '#type' => 'number',
      '#title' => $this->t('Keep failed mail for'),
      '#field_suffix' => $this->t('days'),
      '#min' => 1,
      '#max' => 3650,
      '#description' => $this->t('Mail given up or refused for good stays in the outbox, with its last error, for this long; then cron deletes it. It holds message bodies and password-reset links.'),
      '#config_target' => self::CONFIG . ':mail.outbox.retention_days',
    ];

    $form['contact'] = [
      '#type' => 'details',
      '#title' => $this->t('Contact form'),
      '#open' => TRUE,
      '#description' => $this->t('Place the "Sitebeam contact form" block to show the form. Visitors never choose the recipient.'),
    ];
    $form['contact']['contact_recipient'] = [
      '#type' => 'email',
      '#title' => $this->t('Recipient'),
      '#description' => $this->t('Leave empty to use the site email address.'),
      '#placeholder' => (string) $this->config('system.site')->get('mail'),
      '#config_target' => self::CONFIG . ':contact.recipient',
    ];
    $form['contact']['contact_flood_limit'] = [
      '#type' => 'number',
      '#title' => $this->t('Messages one visitor may send'),
      '#min' => 1,
      '#config_target' => self::CONFIG . ':contact.flood_limit',
    ];
    $form['contact']['contact_flood_window'] = [
      '#type' => 'number',
      '#title' => $this->t('Within this many seconds'),
      '#min' => 1,
      '#config_target' => self::CONFIG . ':contact.flood_window',
    ];
    $form['contact']['contact_consent'] = $this->consentElements('contact', $this->t('Visitors must tick a box with your text to send a message; the message you receive says they agreed.'));

    $form['chat'] = $this->chatElements();

    $form = parent::buildForm($form, $form_state);
    $form['actions']['test_connection'] = [
      '#type' => 'submit',
      '#value' => $this->t('Test connection'),
      '#submit' => ['::testConnection'],
    ];
    $form['actions']['test_email'] = [
      '#type' => 'submit',
      '#value' => $this->t('Send test email'),
      '#submit' => ['::sendTestEmail'],
    ];
    return $form;
  }

  /**
   * The chat: on/off, the models visitors may use, prompt settings, rate.
   */
  protected function chatElements(): array {
    $elements = [
      '#type' => 'details',
      '#title' => $this->t('Chat'),
      '#open' => TRUE,
      '#description' => $this->t('Place the "Sitebeam chat" block to show the chat. Visitors only use the models checked here, with the prompt settings set here.'),
    ];
    $elements['chat_enabled'] = [
      '#type' => 'checkbox',
      '#title' => $this->t('Chat on'),
      '#config_target' => self::CONFIG . ':chat.enabled',
    ];
    $elements['chat_consent'] = $this->consentElements('chat', $this->t('Visitors must tick a box with your text to send a message to the model.'));
    $listing = $this->apiClient->listModels();
    $saved = ChatSettings::identifiers((array) $this->config(self::CONFIG)->get('chat.models'));
    $models = array_values(array_unique(array_merge($listing->models(), $saved)));
    if (!$listing->isSuccess()) {
      $elements['chat_models_unavailable'] = [
        '#type' => 'item',
        '#title' => $this->t("The instance's models could not be listed"),
        '#markup' => $this->messages()->explainModels($listing, $this->credentialsFactory->siteCredentials()->baseUrl()),
      ];
    }
    $elements['chat_models'] = [
      '#type' => 'checkboxes',
      '#title' => $this->t('Models visitors may use'),
      '#description' => $this->t('As the instance lists them; the first one checked is the default.'),
      '#options' => array_combine($models, $models),
      '#config_target' => new ConfigTarget(self::CONFIG, 'chat.models', toConfig: static::class . '::checkedKeys'),
    ];
    $elements['chat_settings'] = [
      '#type' => 'details',
      '#title' => $this->t('Prompt settings'),
      '#description' => $this->t('Sent with every visitor message. Leave a setting empty for the API default.'),
    ];
    foreach (PromptSettings::types() as $name => $type) {
      $elements['chat_settings']['chat_setting_' . $name] = ChatConsoleForm::settingElement($name, $type) + [
        '#config_target' => new ConfigTarget(self::CONFIG, 'chat.settings.' . $name, fromConfig: static::class . '::settingToInput', toConfig: static::class . '::' . $type . 'Setting'),
      ];
    }
    $elements['chat_flood_limit'] = [
      '#type' => 'number',
      '#title' => $this->t('Messages one visitor may send'),
      '#min' => 1,
      '#config_target' => self::CONFIG . ':chat.flood_limit',
    ];
    $elements['chat_flood_window'] = [
      '#type' => 'number',
      '#title' => $this->t('Within this many seconds'),
      '#min' => 1,
      '#config_target' => self::CONFIG . ':chat.flood_window',
    ];
    $elements['chat_daily_limit'] = [
      '#type' => 'number',
      '#title' => $this->t('Daily chat limit'),
      '#description' => $this->t('Messages the whole site may send to the model in a day (UTC), all visitors together: it caps what the chat costs you. Over it, the chat is closed until midnight UTC. Today so far: @count. 0: no limit, and the chat may then spend your whole AI quota.', ['@count' => $this->dailyBudget->today()]),
      '#min' => 0,
      '#required' => TRUE,
      '#config_target' => new ConfigTarget(self::CONFIG, 'chat.daily_limit', toConfig: static::class . '::wholeNumber'),
    ];
    return $elements;
  }

  /**
   * The "Ask for consent" fields of the contact form or the chat.
   *
   * @param string $part
   *   The part of sitebeam.settings: 'contact' or 'chat'.
   * @param \Drupal\Core\StringTranslation\TranslatableMarkup $description
   *   What asking for consent does there.
   */
  protected function consentElements(string $part, TranslatableMarkup $description): array {
    $asked = [':input[name="' . $part . '_consent_enabled"]' => ['checked' => TRUE]];
    return [
      '#type' => 'fieldset',
      '#title' => $this->t('Consent'),
      $part . '_consent_enabled' => [
        '#type' => 'checkbox',
        '#title' => $this->t('Ask for consent'),
        '#description' => $description,
        '#config_target' => self::CONFIG . ':' . $part . '.consent.enabled',
      ],
      $part . '_consent_label' => [
        '#type' => 'textfield',
        '#title' => $this->t('Text of the checkbox'),
        '#description' => $this->t('Plain text, for example: I agree that my message is kept to answer me.'),
        '#maxlength' => 500,
        '#states' => ['visible' => $asked, 'required' => $asked],
        '#config_target' => self::CONFIG . ':' . $part . '.consent.label',
      ],
      $part . '_consent_policy_url' => [
        '#type' => 'textfield',
        '#title' => $this->t('Privacy policy address'),
        '#description' => $this->t('An https:// address or a path of this site such as /privacy, linked next to the checkbox (opened in a new tab). Leave empty for no link.'),
        '#maxlength' => 2048,
        '#states' => ['visible' => $asked],
        '#config_target' => self::CONFIG . ':' . $part . '.consent.policy_url',
      ],
    ];
  }

  /**
   * A stored prompt setting as its form element shows it.
   */
  public static function settingToInput(mixed $value): string {
    return match (TRUE) {
      $value === NULL => '',
      is_bool($value) => $value ? 'true' : 'false',
      default => (string) $value,
    };
  }

  /**
   * An integer setting from its form element; NULL when empty.
   */
  public static function integerSetting(mixed $input): mixed {
    return PromptSettings::typed(PromptSettings::INTEGER, $input);
  }

  /**
   * A whole number typed into a number element, as an integer.
   *
   * Anything else stays as typed, for the schema's constraints to refuse.
   */
  public static function wholeNumber(mixed $input): mixed {
    return is_string($input) && ctype_digit($input) ? (int) $input : $input;
  }

  /**
   * A number prompt setting from its form element; NULL when empty.
   */
  public static function numberSetting(mixed $input): mixed {
    return PromptSettings::typed(PromptSettings::NUMBER, $input);
  }

  /**
   * A boolean prompt setting from its form element; NULL when empty.
   */
  public static function booleanSetting(mixed $input): mixed {
    return PromptSettings::typed(PromptSettings::BOOLEAN, $input);
  }

  /**
   * The token is shown as its source only, never as its value.
   */
  protected function tokenElements(): array {
    $source = $this->credentialsFactory->siteCredentials()->tokenSource();
    $status = match ($source) {
      Credentials::SOURCE_SETTINGS_PHP => $this->t("The API token is set in settings.php (<code>\$settings['sitebeam_api_token']</code>). It is not shown here."),
      Credentials::SOURCE_CONFIG => $this->t("The API token is stored in the site configuration. Prefer <code>\$settings['sitebeam_api_token']</code> in settings.php: configuration exports then never carry it."),
      default => $this->t("No API token yet. Add <code>\$settings['sitebeam_api_token'] = '…';</code> to settings.php (preferred), or enter it below."),
    };
    $elements['token_status'] = [
      '#type' => 'item',
      '#title' => $this->t('API token'),
      '#markup' => $status,
    ];
    if ($source === Credentials::SOURCE_SETTINGS_PHP) {
      return $elements;
    }
    $elements['api_token'] = [
      '#type' => 'password',
      '#title' => $this->t('API token (stored in configuration)'),
      '#description' => $source === Credentials::SOURCE_CONFIG ? $this->t('Leave empty to keep the stored token.') : '',
      '#attributes' => ['autocomplete' => 'off'],
    ];
    if ($source === Credentials::SOURCE_CONFIG) {
      $elements['api_token_clear'] = [
        '#type' => 'checkbox',
        '#title' => $this->t('Remove the stored token'),
      ];
    }
    return $elements;
  }

  /**
   * {@inheritdoc}
   */
  public function submitForm(array &$form, FormStateInterface $form_state): void {
    parent::submitForm($form, $form_state);
    $typed_token = trim((string) $form_state->getValue('api_token', ''));
    if ($typed_token !== '' || $form_state->getValue('api_token_clear')) {
      $this->configFactory()->getEditable(self::CONFIG)->set('api_token', $form_state->getValue('api_token_clear') ? '' : $typed_token)->save();
    }
    $this->mailerSwitch->apply((bool) $form_state->getValue('mail_route'));
  }

  /**
   * Submit handler of "Test connection": the token, email and AI, no mail sent.
   */
  public function testConnection(array &$form, FormStateInterface $form_state): void {
    $form_state->setRebuild();
    $credentials = $this->typedCredentials($form_state);
    if ($credentials === NULL) {
      return;
    }
    $client = $this->apiClient->withCredentials($credentials);
    $email = $client->probeEmailApi();
    // Nothing more is asked of a server that is no instance, or unreachable:
    // an instance refuses the empty probe.
    $token_usable = $email->isInstanceAnswer() && !$email->isSuccess() && !in_array($email->diagnosis(), [
      ApiResult::TOKEN_WRONG,
      ApiResult::ACCOUNT_NOT_CONFIRMED,
    ], TRUE);
    $this->messages()->reportConnection($email, $token_usable ? $client->listModels() : NULL, $credentials->baseUrl());
  }

  /**
   * Submit handler of "Send test email": one message to the current user.
   */
  public function sendTestEmail(array &$form, FormStateInterface $form_state): void {
    $form_state->setRebuild();
    $credentials = $this->typedCredentials($form_state);
    if ($credentials === NULL) {
      return;
    }
    $recipient = (string) ($this->currentUser->getEmail() ?: $this->config('system.site')->get('mail'));
    $site_name = (string) $this->config('system.site')->get('name');
    $result = $this->apiClient->withCredentials($credentials)->sendEmail([
      Contract::EMAIL_FIELD_TO => $recipient,
      Contract::EMAIL_FIELD_SUBJECT => (string) $this->t('Sitebeam test email from @site', ['@site' => $site_name]),
      Contract::EMAIL_FIELD_CONTENT => '<p>' . $this->t('This message was sent by the Sitebeam module of @site to test the connection to the API.', ['@site' => $site_name]) . '</p>',
    ]);
    $this->messages()->reportTestEmail($result, $credentials->baseUrl(), $recipient);
  }

  /**
   * Converts the checkboxes value into the list of checked role IDs.
   */
  public static function checkedKeys(array $value): array {
    return array_map('strval', array_keys(array_filter($value)));
  }

  /**
   * The outbox lifetime in whole hours, for its field.
   */
  public static function hoursFromSeconds(?int $seconds): int {
    return intdiv((int) $seconds, 3600);
  }

  /**
   * The typed hours as the seconds the setting holds.
   */
  public static function secondsFromHours(mixed $hours): int {
    return (int) $hours * 3600;
  }

  /**
   * The outbox cap in whole MiB, for its field.
   */
  public static function mebibytesFromBytes(?int $bytes): int {
    return intdiv((int) $bytes, 1048576);
  }

  /**
   * The typed MiB as the bytes the setting holds.
   *
   * A number too large for an integer becomes the largest one, which the
   * setting's range refuses on the field: a form error, not a TypeError.
   */
  public static function bytesFromMebibytes(mixed $mebibytes): int {
    $bytes = is_numeric($mebibytes) ? (float) $mebibytes * 1048576 : 0.0;
    return $bytes >= PHP_INT_MAX ? PHP_INT_MAX : (int) $bytes;
  }

  /**
   * Converts the list of paths into the textarea's lines.
   */
  public static function linesFromList(?array $list): string {
    return implode("\n", $list ?? []);
  }

  /**
   * The typed address and token, or NULL (with a message).
   *
   * NULL when a test would send the stored token to an address not saved.
   */
  protected function typedCredentials(FormStateInterface $form_state): ?Credentials {
    $credentials = $this->credentialsFactory->forValues((string) $form_state->getValue('base_url'), (string) $form_state->getValue('api_token', ''));
    if ($credentials === NULL) {
      $this->messages()->refuseUnsavedAddress(
        (string) $form_state->getValue('base_url'),
        $this->credentialsFactory->siteCredentials()->tokenSource() !== Credentials::SOURCE_SETTINGS_PHP,
      );
    }
    return $credentials;
  }

  /**
   * Reports API results as status or error messages.
   */
  protected function messages(): ApiResultMessages {
    return new ApiResultMessages($this->messenger(), $this->getStringTranslation());
  }

  /**
   * Every role, as checkbox options.
   */
  protected function roleOptions(): array {
    $options = [];
    foreach ($this->entityTypeManager->getStorage('user_role')->loadMultiple() as $role) {
      $options[$role->id()] = $role->label();
    }
    return $options;
  }

}
