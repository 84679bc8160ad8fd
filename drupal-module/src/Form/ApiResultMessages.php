<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Form;

use Drupal\Core\Messenger\MessengerInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\sitebeam\Api\ApiResult;

/**
 * Tells a site owner what a test against the instance found.
 */
class ApiResultMessages {

  use StringTranslationTrait;

  public function __construct(
    protected MessengerInterface $messenger,
    TranslationInterface $string_translation,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * Reports "Test connection": email and AI, each on its own.
   *
   * @param \Drupal\sitebeam\Api\ApiResult $email
   *   The answer to ApiClient::probeEmailApi().
   * @param \Drupal\sitebeam\Api\ApiResult|null $models
   *   The answer to ApiClient::listModels(); NULL when the email answer
   *   already shows that nothing else can work (wrong token, unreachable).
   * @param string $url
   *   The instance address tested.
   */
  public function reportConnection(ApiResult $email, ?ApiResult $models, string $url): void {
    $args = ['@url' => $url];
    if ($email->provesEmailApi()) {
      $this->messenger->addStatus($this->t('Email: connected to @url, the token is accepted and email sending is enabled for the account (nothing was sent).', $args));
    }
    else {
      $this->messenger->addError($this->t('Email: @reason', ['@reason' => $this->explain($email, $url)]));
    }
    if ($models === NULL) {
      return;
    }
    if ($models->isSuccess()) {
      $this->messenger->addStatus($this->t('AI: @count models available for the chat.', ['@count' => count($models->models())]));
      return;
    }
    // The chat alone needs the AI API: what works without it stays usable.
    $this->messenger->addWarning($this->t('AI: @reason', ['@reason' => $this->explainModels($models, $url)]));
  }

  /**
   * A test of an address typed but not saved, without a token typed for it.
   */
  public function refuseUnsavedAddress(string $url, bool $token_field_shown): void {
    $args = ['@url' => $url];
    $this->messenger->addError($token_field_shown
      ? $this->t('The stored API token is only sent to the saved instance address, not to @url. Save the settings first, or type the token again to test @url with it.', $args)
      : $this->t('The API token of settings.php is only sent to the saved instance address, not to @url. Save the settings first, then test again.', $args));
  }

  /**
   * Reports the answer to "Send test email".
   */
  public function reportTestEmail(ApiResult $result, string $url, string $recipient): void {
    if ($result->isSuccess()) {
      $this->messenger->addStatus($this->t('A test email was sent to @recipient through @url.', [
        '@recipient' => $recipient,
        '@url' => $url,
      ]));
      return;
    }
    $this->messenger->addError($this->explain($result, $url));
  }

  /**
   * Why the instance's models could not be listed.
   */
  public function explainModels(ApiResult $result, string $url): TranslatableMarkup {
    $args = ['@url' => $url, '@code' => $result->code()];
    return match ($result->diagnosis()) {
      ApiResult::AI_ABSENT => $this->t('The instance at @url has no AI API (405 @code): the chat cannot be used with it. Email sending and the tracker are not affected.', $args),
      ApiResult::NOT_ENABLED => $this->t('The instance at @url does not offer the AI API to this account (403 @code). Ask the instance support or administrator to enable it.', $args),
      default => $this->explain($result, $url),
    };
  }

  /**
   * What went wrong, in words a site owner can act on.
   */
  public function explain(ApiResult $result, string $url): TranslatableMarkup {
    $args = ['@url' => $url, '@status' => $result->status, '@code' => $result->code()];
    return match ($result->diagnosis()) {
      ApiResult::UNSAFE_ADDRESS => $this->t('Nothing was sent to @url: the token travels only over https (plain http only to localhost or 127.0.0.1). Correct the address, in settings.php too if it is set there.', $args),
      ApiResult::NOT_CONFIGURED => $this->t('Enter the instance base URL, and set the API token in settings.php or in the token field, first.'),
      ApiResult::TOKEN_WRONG => $this->t('The instance at @url refused the token (401): the token is wrong. Copy it again from your Sitebeam account.', $args),
      ApiResult::NOT_ENABLED => $this->t('Email sending is not enabled for this account (403 @code). Ask the instance support or administrator to enable the email API for it.', $args),
      ApiResult::SERVICE_DISABLED => $this->t('The instance at @url has email sending switched off (405). Ask its administrator.', $args),
      ApiResult::ACCOUNT_NOT_CONFIRMED => $this->t('The instance at @url accepted the token, but the account is not confirmed yet (403 @code). Confirm it from the email the instance sent.', $args),
      ApiResult::AI_ABSENT => $this->t('The instance at @url has no AI API (405 @code).', $args),
      ApiResult::INVALID_FIELD => $this->t('The instance at @url refused the message: @fields. Correct it; sending it again unchanged cannot work.', $args + ['@fields' => $result->errorText()]),
      ApiResult::UNREACHABLE => $this->t('The instance at @url cannot be reached: check the address and the network. (@reason)', $args + ['@reason' => $result->errorText()]),
      ApiResult::RATE_LIMITED => $this->t('The instance at @url is limiting requests (429). Try again in a few minutes.', $args),
      ApiResult::SERVER_ERROR => $this->t('The instance at @url had a problem (@status). Try again later.', $args),
      default => $this->t('The instance at @url refused the request (@status @code): @error', $args + ['@error' => $result->errorText()]),
    };
  }

}
