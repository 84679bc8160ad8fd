<?php

declare(strict_types=1);

namespace Drupal\sitebeam\OutboxReport;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Datetime\DateFormatterInterface;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Outbox\DeliveryState;
use Drupal\sitebeam\Outbox\OutboxItem;

/**
 * Whether mail is flowing, in words: the line atop the outbox's pages.
 *
 * "The instance has failed since 13:19 (the instance is busy (HTTP 503)) ·
 * 508 mails waiting · next try in 4 min · [Try now] [Test connection]", or
 * "Mail is flowing: the last mail was delivered 3 min ago · nothing waits".
 * Read from the last send's outcome, which every request shares (the
 * engine's DeliveryState), and from the outbox's counts.
 */
class DeliveryStatus {

  use StringTranslationTrait;

  /**
   * Constructs the status line's source.
   *
   * @param \Drupal\sitebeam\OutboxReport\OutboxListing $listing
   *   The outbox's counts.
   * @param \Drupal\sitebeam\Outbox\DeliveryState $deliveryState
   *   The last send's outcome, shared by every request.
   * @param \Drupal\sitebeam\Api\CredentialsFactory $credentialsFactory
   *   Whether an instance is set up at all.
   * @param \Drupal\sitebeam\OutboxReport\ErrorInWords $errorInWords
   *   The last error in words.
   * @param \Drupal\Core\Datetime\DateFormatterInterface $dateFormatter
   *   Times in the user's time zone.
   * @param \Drupal\Component\Datetime\TimeInterface $time
   *   Now.
   * @param \Drupal\Core\StringTranslation\TranslationInterface $string_translation
   *   Translation.
   */
  public function __construct(
    protected OutboxListing $listing,
    protected DeliveryState $deliveryState,
    protected CredentialsFactory $credentialsFactory,
    protected ErrorInWords $errorInWords,
    protected DateFormatterInterface $dateFormatter,
    protected TimeInterface $time,
    TranslationInterface $string_translation,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * The last send's outcome: DeliveryState::get().
   */
  public function state(): array {
    return $this->deliveryState->get();
  }

  /**
   * The status line, with Try now and Test connection.
   *
   * @param array<string, int> $counts
   *   OutboxListing::counts().
   */
  public function line(array $counts): array {
    $parts = [$this->delivery()];
    $waiting = $counts[OutboxItem::WAITING];
    $parts[] = $waiting > 0
      ? $this->formatPlural($waiting, '1 mail waiting', '@count mails waiting')
      : $this->t('nothing waits');
    if ($counts[OutboxItem::FAILED] > 0) {
      $parts[] = $this->formatPlural($counts[OutboxItem::FAILED], '1 mail not delivered', '@count mails not delivered');
    }
    $next = $waiting > 0 ? $this->listing->nextTry() : NULL;
    if ($next !== NULL) {
      $parts[] = $this->nextTry($next, TRUE);
    }
    $build = [
      '#type' => 'container',
      '#attributes' => ['class' => ['sitebeam-outbox-status']],
      // safe_join escapes what is not markup already: each part is.
      'text' => [
        '#type' => 'inline_template',
        '#template' => '<p>{{ parts|safe_join(" · ") }}</p>',
        '#context' => ['parts' => $parts],
      ],
      'actions' => ['#type' => 'actions'],
    ];
    if ($waiting > 0) {
      $build['actions']['try'] = $this->button($this->t('Try now'), 'sitebeam.outbox_try');
    }
    if ($this->credentialsFactory->siteCredentials()->isComplete()) {
      $build['actions']['test'] = $this->button($this->t('Test connection'), 'sitebeam.outbox_test_connection');
    }
    return $build;
  }

  /**
   * The first words of the line: failing, flowing, or nothing sent yet.
   *
   * Markup-safe: every piece of it is a placeholder of a translated string.
   */
  public function delivery(): TranslatableMarkup {
    if (!$this->credentialsFactory->siteCredentials()->isComplete()) {
      return $this->t('No mail can be sent: the instance address or the token is missing');
    }
    $state = $this->state();
    if ($state['failing_since'] !== NULL) {
      $words = $this->t('The instance has failed since @time (@error)', [
        '@time' => $this->when((int) $state['failing_since']),
        '@error' => $this->errorInWords->describe((string) $state['last_error'], (int) $state['last_status']),
      ]);
      if ((int) $state['breaker_until'] > $this->time->getCurrentTime()) {
        return $this->t('@failing; new mail goes straight to the outbox until @time', [
          '@failing' => $words,
          '@time' => $this->when((int) $state['breaker_until']),
        ]);
      }
      return $words;
    }
    if ($state['last_success'] !== NULL) {
      return $this->t('Mail is flowing: the last mail was delivered @ago', ['@ago' => $this->ago((int) $state['last_success'])]);
    }
    return $this->t('No mail has been sent through the instance yet');
  }

  /**
   * The next try in words: "in 4 min", or "Overdue: at the next cron run".
   *
   * @param int $next
   *   When it is due.
   * @param bool $in_line
   *   TRUE for the status line's words ("next try in 4 min"), FALSE for a
   *   column named Next try.
   */
  public function nextTry(int $next, bool $in_line = FALSE): TranslatableMarkup {
    $args = ['@interval' => $this->dateFormatter->formatTimeDiffUntil($next, ['granularity' => 1])];
    return match (TRUE) {
      $next <= $this->time->getCurrentTime() => $in_line ? $this->t('next try overdue: at the next cron run') : $this->t('Overdue: at the next cron run'),
      $in_line => $this->t('next try in @interval', $args),
      default => $this->t('in @interval', $args),
    };
  }

  /**
   * An age in words: "3 min ago", from the request's time.
   */
  public function ago(int $timestamp): TranslatableMarkup {
    return $this->t('@interval ago', ['@interval' => $this->dateFormatter->formatTimeDiffSince($timestamp, ['granularity' => 1])]);
  }

  /**
   * A time in the user's (else the site's) time zone: "13:19" today.
   */
  public function when(int $timestamp): string {
    $today = $this->dateFormatter->format($this->time->getCurrentTime(), 'custom', 'Y-m-d');
    return $this->dateFormatter->format($timestamp, 'custom', 'Y-m-d') === $today
      ? $this->dateFormatter->format($timestamp, 'custom', 'H:i')
      : $this->dateFormatter->format($timestamp, 'short');
  }

  /**
   * A small button linking to an action route that carries a CSRF token.
   */
  protected function button(TranslatableMarkup $title, string $route): array {
    return [
      '#type' => 'link',
      '#title' => $title,
      '#url' => Url::fromRoute($route),
      '#attributes' => ['class' => ['button', 'button--small']],
    ];
  }

}
