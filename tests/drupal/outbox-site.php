<?php

/**
 * @file
 * The outbox browser tests' hands on the test site, without drush.
 *
 * Run from DRUPAL_ROOT: php outbox-site.php COMMAND [ARGUMENTS]. Boots
 * Drupal (site-bootstrap.php), then:
 * - user NAME: adds an active user NAME with the address NAME@example.com;
 * - route on URL|off: sends site mail through Sitebeam (mail.route) at the
 *   instance URL, or not;
 * - send COUNT MARKER: sends COUNT probe mails (sitebeam_test), subjects
 *   "MARKER 1".."MARKER COUNT", the first with an attachment;
 * - due: every waiting mail becomes due, as time passing would make it;
 * - deliver: one run of the outbox's sender, as cron runs it;
 * - cron: one run of Drupal's cron;
 * - rows MARKER: the outbox's mails whose subject starts with MARKER;
 * - locks [release-cron]: whether cron's lock and the outbox's lock are held,
 *   after releasing cron's (as a dead run leaves it) if asked;
 * - table drop|create: removes the outbox table, as before update.php, or
 *   puts it back.
 * Prints its outcome as JSON.
 */

declare(strict_types=1);

use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\Outbox\OutboxSender;
use Drupal\user\Entity\User;

require __DIR__ . '/site-bootstrap.php';

$command = $argv[1] ?? '';
$outcome = match ($command) {
  'user' => (function (string $name): array {
    $user = User::create(['name' => $name, 'mail' => "$name@example.com", 'status' => 1]);
    $user->save();
    return ['uid' => (int) $user->id()];
  })($argv[2]),
  'route' => (function (bool $on, ?string $url): array {
    $settings = \Drupal::configFactory()->getEditable('sitebeam.settings')->set('mail.route', $on);
    if ($url !== NULL) {
      $settings->set('base_url', $url);
    }
    $settings->save();
    \Drupal::service('sitebeam.mailer_switch')->apply($on);
    return ['mailer' => \Drupal::config('system.mail')->get('interface.default')];
  })($argv[2] === 'on', $argv[3] ?? NULL),
  'send' => (function (int $count, string $marker): array {
    $results = [];
    for ($i = 1; $i <= $count; $i++) {
      $params = ['subject' => "$marker $i", 'body' => ["Mail $i of $marker"]];
      if ($i === 1) {
        $params['attachments'] = [['filecontent' => "first,$marker\n", 'filename' => 'first.csv', 'filemime' => 'text/csv']];
      }
      $results[] = (bool) \Drupal::service('plugin.manager.mail')->mail('sitebeam_test', 'probe', "to$i@example.com", 'en', $params)['result'];
    }
    return ['results' => $results];
  })((int) $argv[2], $argv[3]),
  'due' => ['updated' => \Drupal::database()->update(Outbox::TABLE)->fields(['next_try' => 0])->condition('state', 'waiting')->execute()],
  'deliver' => ['run' => \Drupal::service('sitebeam.outbox_sender')->deliverDue(), 'pid' => getmypid()],
  'cron' => ['ran' => \Drupal::service('cron')->run()],
  'rows' => ['rows' => array_map(static fn (OutboxItem $item): array => [
    'subject' => $item->subject,
    'state' => $item->state,
    'tries' => $item->tries,
    'kind' => $item->kind,
  ], array_values(array_filter(\Drupal::service('sitebeam.outbox')->all(), static fn (OutboxItem $item): bool => str_starts_with($item->subject, $argv[2]))))],
  'locks' => (function (bool $release_cron): array {
    if ($release_cron) {
      // What a dead cron run holds, as an owner would end it: its semaphore row.
      \Drupal::database()->delete('semaphore')->condition('name', 'cron')->execute();
    }
    return [
      'cron' => !\Drupal::lock()->lockMayBeAvailable('cron'),
      'outbox' => !\Drupal::lock()->lockMayBeAvailable(OutboxSender::LOCK),
    ];
  })(($argv[2] ?? '') === 'release-cron'),
  'table' => (function (bool $drop): array {
    $schema = \Drupal::database()->schema();
    if ($drop) {
      $schema->dropTable(Outbox::TABLE);
    }
    elseif (!$schema->tableExists(Outbox::TABLE)) {
      \Drupal::moduleHandler()->loadInclude('sitebeam', 'install');
      $schema->createTable(Outbox::TABLE, sitebeam_schema()[Outbox::TABLE]);
    }
    return ['exists' => $schema->tableExists(Outbox::TABLE)];
  })($argv[2] === 'drop'),
};
echo json_encode($outcome), "\n";
