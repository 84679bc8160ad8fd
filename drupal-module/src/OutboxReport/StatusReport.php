<?php

declare(strict_types=1);

namespace Drupal\sitebeam\OutboxReport;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\Extension\ModuleExtensionList;
use Drupal\Core\Site\Settings;
use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Url;
use Drupal\sitebeam\Api\Credentials;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Install\SetupRequirements;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;

/**
 * The module's lines on the status report (hook_requirements(), runtime).
 *
 * "Sitebeam" says whether mail reaches the instance, from the last send (the
 * engine's DeliveryState), not whether an address is set; "Sitebeam outbox"
 * raises mail not delivered (refused for good or given up) as an error, with
 * the count, the cause in words, since when and a link to the outbox.
 */
class StatusReport {

  use StringTranslationTrait;

  /**
   * Mail waiting longer than this is a warning.
   */
  public const LATE_S = 3600;

  public function __construct(
    protected CredentialsFactory $credentialsFactory,
    protected Outbox $outbox,
    protected OutboxListing $listing,
    protected DeliveryStatus $deliveryStatus,
    protected ErrorInWords $errorInWords,
    protected SetupRequirements $setupRequirements,
    protected ModuleExtensionList $moduleList,
    protected TimeInterface $time,
    TranslationInterface $string_translation,
  ) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * Every line of the module, keyed as hook_requirements() wants.
   */
  public function requirements(): array {
    $requirements = ['sitebeam' => $this->connection()] + $this->outboxLine() + $this->setupRequirements->runtime();
    if (!Settings::get('trusted_host_patterns')) {
      // Core's own warning says why trusted hosts matter; this says what
      // Sitebeam does without them (OriginRule::trustsHost()).
      $requirements['sitebeam_trusted_hosts'] = [
        'title' => $this->t('Sitebeam contact form and chat'),
        'value' => $this->t('Only on localhost or an IP address'),
        'description' => $this->t('Without trusted_host_patterns in settings.php, the contact form and chat cannot tell this site from another name pointed at its server, so they refuse posts from pages unless the site is visited at localhost or an IP address. Set trusted_host_patterns to the names of this site.'),
        'severity' => REQUIREMENT_WARNING,
      ];
    }
    return $requirements;
  }

  /**
   * The line "Sitebeam": the instance, and whether the last send reached it.
   */
  protected function connection(): array {
    $credentials = $this->credentialsFactory->siteCredentials();
    $requirement = [
      'title' => $this->t('Sitebeam'),
      'severity' => REQUIREMENT_OK,
    ];
    $state = $this->deliveryStatus->state();
    $args = ['@url' => $credentials->baseUrl(), '@source' => $credentials->tokenSource()];
    if (!$credentials->isComplete()) {
      $requirement['value'] = $this->t('Not configured');
      $requirement['description'] = $this->t('Set the instance address on the <a href=":url">Sitebeam settings page</a> and the token in settings.php.', [
        ':url' => Url::fromRoute('sitebeam.settings')->toString(),
      ]);
      $requirement['severity'] = REQUIREMENT_WARNING;
    }
    elseif ($state['failing_since'] !== NULL) {
      $requirement['value'] = $this->t('Failing since @time: @error', [
        '@time' => $this->deliveryStatus->when((int) $state['failing_since']),
        '@error' => $this->errorInWords->describe((string) $state['last_error'], (int) $state['last_status']),
      ]);
      $requirement['description'] = $this->t('Mail sent to @url since then waits in the <a href=":outbox">outbox</a> and is sent when the instance is back.', $args + [
        ':outbox' => Url::fromRoute('sitebeam.outbox')->toString(),
      ]);
      $requirement['severity'] = REQUIREMENT_WARNING;
    }
    elseif ($state['last_success'] !== NULL) {
      $requirement['value'] = $this->t('Connected to @url: the last mail was delivered @ago (token from @source)', $args + [
        '@ago' => $this->deliveryStatus->ago((int) $state['last_success']),
      ]);
    }
    else {
      $requirement['value'] = $this->t('Set up for @url (token from @source); no mail has been sent through it yet', $args);
    }
    $missing_scripts = array_filter(
      ['sitebeam.min.js', 'sitebeam-form.min.js', 'sitebeam-chat.min.js'],
      fn (string $file): bool => !is_file($this->moduleList->getPath('sitebeam') . '/js/' . $file),
    );
    if ($missing_scripts) {
      $requirement['description'] = $this->t('The built scripts are missing from the js folder: @files. Install the module from its release archive.', ['@files' => implode(', ', $missing_scripts)]);
      $requirement['severity'] = REQUIREMENT_ERROR;
    }
    if ($credentials->tokenSource() === Credentials::SOURCE_CONFIG && $requirement['severity'] === REQUIREMENT_OK) {
      $requirement['description'] = $this->t('The token is stored in configuration: move it to settings.php so that configuration exports do not carry it.');
    }
    return $requirement;
  }

  /**
   * The line "Sitebeam outbox": mail not delivered, late, or no table.
   */
  protected function outboxLine(): array {
    $requirement = ['title' => $this->t('Sitebeam outbox')];
    if (!$this->outbox->exists()) {
      $requirement += [
        'value' => $this->t('The outbox table is missing'),
        'description' => $this->t('Run the database updates (update.php, or drush updatedb): until then, mail the instance cannot take at once is not kept for a later try, and is reported as not sent.'),
        'severity' => REQUIREMENT_ERROR,
      ];
      return ['sitebeam_outbox' => $requirement];
    }
    $counts = $this->listing->counts();
    if ($counts['all'] === 0) {
      return [];
    }
    $outbox = Url::fromRoute('sitebeam.outbox')->toString();
    $failures = $this->listing->failures();
    if ($failures !== NULL) {
      $latest = $failures['latest'];
      $requirement += [
        'value' => $this->formatPlural($counts[OutboxItem::FAILED], '1 mail not delivered', '@count mails not delivered'),
        'description' => $this->t('Since @time, the instance refused mail for good, or mail was given up. The last cause: @error. <a href=":url">The outbox</a> can send it again or delete it.', [
          '@time' => $this->deliveryStatus->when($failures['since']),
          '@error' => $this->errorInWords->describe((string) $latest->last_error),
          ':url' => Url::fromRoute('sitebeam.outbox', [], ['query' => [OutboxListing::FILTER => OutboxItem::FAILED]])->toString(),
        ]),
        'severity' => REQUIREMENT_ERROR,
      ];
      return ['sitebeam_outbox' => $requirement];
    }
    $requirement += [
      'value' => $this->formatPlural($counts[OutboxItem::WAITING], '1 mail waiting', '@count mails waiting'),
      'description' => $this->t('<a href=":url">The outbox</a> lists each mail with its last error.', [':url' => $outbox]),
      'severity' => REQUIREMENT_OK,
    ];
    $oldest = $this->outbox->oldestWaiting();
    if ($oldest !== NULL && $this->time->getCurrentTime() - $oldest > self::LATE_S) {
      $requirement['description'] = $this->t('Mail has waited more than an hour for the Sitebeam instance: the oldest since @time. Check the instance and that cron runs; <a href=":url">the outbox</a> shows the last error of each mail.', [
        '@time' => $this->deliveryStatus->when($oldest),
        ':url' => $outbox,
      ]);
      $requirement['severity'] = REQUIREMENT_WARNING;
    }
    return ['sitebeam_outbox' => $requirement];
  }

}
