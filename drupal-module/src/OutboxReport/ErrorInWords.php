<?php

declare(strict_types=1);

namespace Drupal\sitebeam\OutboxReport;

use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;

/**
 * A try's error as an owner reads it: "the instance is busy (HTTP 503)".
 *
 * The outbox keeps each error as the log writes it (ApiResult::logSummary():
 * "HTTP 503 model_loading: …", "network failure: cURL error 28: …"), which
 * the single-mail page shows as it is. Lists and the status report show the
 * cause in words, the status kept in brackets for whoever asks the instance's
 * administrator. A text of another form is given back as it is (escaped
 * wherever it is printed).
 */
class ErrorInWords {

  use StringTranslationTrait;

  public function __construct(TranslationInterface $string_translation) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * The error in words.
   *
   * @param string $error
   *   The error as the outbox or the delivery state keeps it.
   * @param int|null $status
   *   The HTTP status when it is kept apart (0: no answer); NULL to read it
   *   from the text.
   */
  public function describe(string $error, ?int $status = NULL): TranslatableMarkup|string {
    $error = trim($error);
    if (preg_match('/^given up after (\d+) tries in (\d+) hours; the last error: (.*)$/s', $error, $match)) {
      return $this->formatPlural((int) $match[1], 'given up after 1 try in @hours hours: @error', 'given up after @count tries in @hours hours: @error', [
        '@hours' => $match[2],
        '@error' => $this->describe($match[3]),
      ]);
    }
    if (str_contains($error, 'an answer the contract does not allow') || preg_match('/the answer is larger than \d+ bytes/', $error)) {
      return $this->t('the instance answered something that is not a Sitebeam answer');
    }
    if (preg_match('/^HTTP (\d{3})(?: ([a-z0-9_]+))?(?:: (.*))?$/s', $error, $match)) {
      return $this->http((int) $match[1], $match[2] ?? '', $match[3] ?? '');
    }
    if (preg_match('/^network failure: (.*)$/s', $error, $match)) {
      return $this->network($match[1]);
    }
    if (str_starts_with($error, 'not sent: the instance address is neither https')) {
      return $this->t('nothing was sent: the instance address is not https');
    }
    if (str_starts_with($error, 'not sent: the instance address is private')) {
      return $this->t('nothing was sent: the instance address is private or on an unusual port');
    }
    if ($status !== NULL && $status > 0) {
      return $this->http($status, '', '');
    }
    if ($status === 0 && $error === '') {
      return $this->t('the instance could not be reached');
    }
    return $error;
  }

  /**
   * An answer of the instance, by its status.
   */
  protected function http(int $status, string $code, string $text): TranslatableMarkup {
    $args = ['@status' => $status];
    return match (TRUE) {
      $status === 400 => $this->t('the instance refused the mail as malformed (HTTP @status)', $args),
      $status === 401 => $this->t('the instance refused the token (HTTP @status)', $args),
      $status === 403 && $code === 'account_not_confirmed' => $this->t('the account is not confirmed yet (HTTP @status)', $args),
      $status === 403 => $this->t('the account may not send mail (HTTP @status)', $args),
      $status === 405 => $this->t('mail sending is switched off on the instance (HTTP @status)', $args),
      $status === 408 => $this->t('the instance took too long (HTTP @status)', $args),
      $status === 413 => $this->t('the mail is too large for the instance (HTTP @status)', $args),
      $status === 422 && $text !== '' && !str_starts_with($text, 'HTTP ') => $this->t('the instance refused the mail (HTTP @status): @reason', $args + ['@reason' => $text]),
      $status === 422 => $this->t('the instance refused the mail (HTTP @status)', $args),
      $status === 429 => $this->t('the instance asked to slow down (HTTP @status)', $args),
      $status === 503 => $this->t('the instance is busy (HTTP @status)', $args),
      $status === 502 || $status === 504 => $this->t('no answer from the instance behind its proxy (HTTP @status)', $args),
      $status >= 500 => $this->t('the instance had an internal error (HTTP @status)', $args),
      default => $this->t('the instance refused the mail (HTTP @status)', $args),
    };
  }

  /**
   * No answer: what cURL or the stream said, in words.
   */
  protected function network(string $reason): TranslatableMarkup {
    return match (TRUE) {
      (bool) preg_match('/cURL error 28\b|timed out|time-?out/i', $reason) => $this->t('the instance did not answer in time'),
      (bool) preg_match('/cURL error 6\b|resolve host|name or service not known|getaddrinfo/i', $reason) => $this->t('the instance name could not be resolved (DNS)'),
      (bool) preg_match('/cURL error 7\b|connection refused|failed to connect/i', $reason) => $this->t('the instance could not be reached (connection refused)'),
      (bool) preg_match('/cURL error (35|51|58|60)\b|SSL|certificate/i', $reason) => $this->t('the secure connection to the instance failed (TLS)'),
      default => $this->t('the instance could not be reached'),
    };
  }

}
