<?php

/**
 * @file
 * The outbox browser tests' hands on the test site, without drush.
 *
 * Run from DRUPAL_ROOT: php outbox-site.php COMMAND [ARGUMENTS]. Boots
 * DrupalKernel as site-setup.php does, then:
 * - user NAME: adds an active user NAME with the address NAME@example.com;
 * - route on URL|off: sends site mail through Sitebeam (mail.route) at the
 *   instance URL, or not;
 * - send COUNT MARKER: sends COUNT probe mails (sitebeam_test), subjects
 *   "MARKER 1".."MARKER COUNT", the first with an attachment;
 * - due: every waiting mail becomes due, as time passing would make it;
 * - deliver: one run of the outbox's sender, as cron runs it;
 * - cron: one run of Drupal's cron.
 * Prints its outcome as JSON.
 */

declare(strict_types=1);

use Drupal\Core\DrupalKernel;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\user\Entity\User;
use Symfony\Component\HttpFoundation\Request;

$autoloader = require getcwd() . '/autoload.php';
$request = Request::create('/', 'GET', [], [], [], [
  'SCRIPT_NAME' => '/index.php',
  'SCRIPT_FILENAME' => getcwd() . '/index.php',
]);
$kernel = DrupalKernel::createFromRequest($request, $autoloader, 'prod');
$kernel->boot();
$kernel->preHandle($request);

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
};
echo json_encode($outcome), "\n";
