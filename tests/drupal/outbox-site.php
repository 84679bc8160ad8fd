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
 *   puts it back;
 * - fill COUNT MARKER: writes COUNT waiting rows straight into the table, as
 *   the outbox keeps them (subjects "MARKER 001"…, addresses
 *   fill001@example.com…, queued over the last two hours, next try in an
 *   hour, every 100th a contact message): fast, for the screens' tests;
 * - expire MARKER: the rows whose subject starts with MARKER are past their
 *   lifetime and due, as 72 hours passing would make them;
 * - clear MARKER [KEEP]: deletes the rows whose subject starts with MARKER,
 *   but the KEEP last ones.
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
  'fill' => (function (int $count, string $marker): array {
    $now = time();
    $insert = \Drupal::database()->insert(Outbox::TABLE)->fields([
      'recipient', 'subject', 'mail_id', 'payload', 'bytes', 'created', 'next_try',
      'expires', 'tries', 'state', 'last_error', 'claimed_until', 'kind', 'history',
    ]);
    for ($i = 1; $i <= $count; $i++) {
      $to = sprintf('fill%03d@example.com', $i);
      $subject = sprintf('%s %03d', $marker, $i);
      $payload = json_encode(['to' => $to, 'subject' => $subject, 'content' => "<p>Mail $i of $marker</p>"]);
      $insert->values([
        $to, $subject, 'sitebeam_test_probe', $payload, strlen($payload), $now - 7200 + $i, $now + 3600,
        $now + 259200, 1, 'waiting', 'HTTP 503 model_loading: The model is loading', 0,
        $i % 100 === 0 ? OutboxItem::KIND_CONTACT : OutboxItem::KIND_SITE, '[]',
      ]);
    }
    $insert->execute();
    return ['filled' => $count];
  })((int) $argv[2], $argv[3]),
  'expire' => ['expired' => \Drupal::database()->update(Outbox::TABLE)->fields(['expires' => time() - 1, 'next_try' => 0])->condition('subject', \Drupal::database()->escapeLike($argv[2]) . '%', 'LIKE')->execute()],
  'clear' => (function (string $marker, int $keep): array {
    $mine = \Drupal::database()->select(Outbox::TABLE, 'o')->fields('o', ['id'])->condition('subject', \Drupal::database()->escapeLike($marker) . '%', 'LIKE')->orderBy('id')->execute()->fetchCol();
    $doomed = array_slice($mine, 0, max(0, count($mine) - $keep));
    return ['deleted' => \Drupal::service('sitebeam.outbox')->deleteMany($doomed)];
  })($argv[2], (int) ($argv[3] ?? 0)),
};
echo json_encode($outcome), "\n";
