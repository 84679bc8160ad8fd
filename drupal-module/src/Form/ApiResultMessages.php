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
      // An instance refuses the empty probe: one that takes it is none.
      $reason = $email->isSuccess() ? $this->notAnInstance($url) : $this->explain($email, $url);
      $this->messenger->addError($this->t('Email: @reason', ['@reason' => $reason]));
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
    return match ($result->isInstanceAnswer() ? $result->diagnosis() : NULL) {
      ApiResult::AI_ABSENT => $this->t('The instance at @url has no AI API (405 @code): the chat cannot be used with it. Email sending and the tracker are not affected.', $args),
      ApiResult::NOT_ENABLED => $this->t('The instance at @url does not offer the AI API to this account (403 @code). Ask the instance support or administrator to enable it.', $args),
      default => $this->explain($result, $url),
    };
  }

  /**
   * The one message for an address where no instance answers, whatever did.
   */
  protected function notAnInstance(string $url): TranslatableMarkup {
    return $this->t('No Sitebeam instance answered at @url: it cannot be reached, or what answers there is not an instance. Check the address and the network.', ['@url' => $url]);
  }

  /**
   * What went wrong, in words a site owner can act on.
   *
   * Only what a Sitebeam instance answered is explained: a network error, or
   * whatever another server answers, is the one same message, with no error,
   * status or body of it. The form then cannot tell a closed port from an
   * open one, or one service of the network from another.
   */
  public function explain(ApiResult $result, string $url): TranslatableMarkup {
    $args = ['@url' => $url, '@status' => $result->status, '@code' => $result->code()];
    $diagnosis = $result->diagnosis();
    if ($diagnosis === ApiResult::UNREACHABLE || ($result->status !== 0 && !$result->isInstanceAnswer())) {
      return $this->notAnInstance($url);
    }
    return match ($diagnosis) {
      ApiResult::PRIVATE_ADDRESS => $this->t("Nothing was sent to @url: it is on a private or loopback network, or on a port other than 443, 80 and 8080. For an instance on your own network, or a test instance on this machine, add <code>\$settings['sitebeam_allow_private_hosts'] = TRUE;</code> to settings.php.", $args),
      ApiResult::UNSAFE_ADDRESS => $this->t('Nothing was sent to @url: the token travels only over https (plain http only to localhost or 127.0.0.1). Correct the address, in settings.php too if it is set there.', $args),
      ApiResult::NOT_CONFIGURED => $this->t('Enter the instance base URL, and set the API token in settings.php or in the token field, first.'),
      ApiResult::TOKEN_WRONG => $this->t('The instance at @url refused the token (401): the token is wrong. Copy it again from your Sitebeam account.', $args),
      ApiResult::NOT_ENABLED => $this->t('Email sending is not enabled for this account (403 @code). Ask the instance support or administrator to enable the email API for it.', $args),
      ApiResult::SERVICE_DISABLED => $this->t('The instance at @url has email sending switched off (405). Ask its administrator.', $args),
      ApiResult::ACCOUNT_NOT_CONFIRMED => $this->t('The instance at @url accepted the token, but the account is not confirmed yet (403 @code). Confirm it from the email the instance sent.', $args),
      ApiResult::AI_ABSENT => $this->t('The instance at @url has no AI API (405 @code).', $args),
      ApiResult::INVALID_FIELD => $this->t('The instance at @url refused the message: @fields. Correct it; sending it again unchanged cannot work.', $args + ['@fields' => $result->errorText()]),
      ApiResult::RATE_LIMITED => $this->t('The instance at @url is limiting requests (429). Try again in a few minutes.', $args),
      ApiResult::SERVER_ERROR => $this->t('The instance at @url had a problem (@status). Try again later.', $args),
      default => $this->t('The instance at @url refused the request (@status @code): @error', $args + ['@error' => $result->errorText()]),
    };
  }

}
