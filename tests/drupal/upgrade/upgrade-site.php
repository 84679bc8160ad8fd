<?php

/**
 * @file
 * The upgrade test's hands on the browser tests' site (UpgradeTest.php).
 *
 * Run from DRUPAL_ROOT: php upgrade-site.php STEP [ARGUMENT]. Each step runs
 * in a PHP process of its own, as each request of a real site does: the module
 * code it runs is the code on disk when it starts. Prints its outcome as one
 * line of JSON.
 * - uninstall: uninstalls sitebeam_test and sitebeam;
 * - install: installs sitebeam (whichever code modules/custom/sitebeam holds);
 * - configure JSON: sets those sitebeam.settings values (JSON object of
 *   config keys) and routes site mail as the settings form does;
 * - send MARKER: site mail to upgrade@example.com, MARKER in its subject;
 * - update: runs the pending updates as update.php's batch does (the update
 *   kernel, hook_update_N in dependency order, post updates, then a full
 *   cache rebuild);
 * - state: the settings, their schema check, the outbox, pending updates, the
 *   status report's errors about them and the PHP messages logged after wid
 *   ARGUMENT;
 * - deliver: makes the waiting mail due and runs the outbox's sender, as cron.
 */

declare(strict_types=1);

use Drupal\Core\DrupalKernel;
use Drupal\Core\Update\UpdateKernel;
use Drupal\sitebeam\Outbox\Outbox;

$step = $argv[1] ?? '';
// The update kernel always builds its container from the code on disk, as
// update.php does: the cached one may name services the new code no longer
// has.
$sitebeam_kernel_class = $step === 'update' ? UpdateKernel::class : DrupalKernel::class;
require dirname(__DIR__) . '/site-bootstrap.php';
require_once DRUPAL_ROOT . '/core/includes/install.inc';
require_once DRUPAL_ROOT . '/core/includes/update.inc';

/**
 * Pending update functions: hook_update_N by module, then post updates.
 */
function sitebeam_upgrade_pending(): array {
  drupal_load_updates();
  $pending = [];
  foreach (update_get_update_list() as $module => $updates) {
    $pending[$module] = array_keys($updates['pending'] ?? []);
  }
  return [
    'updates' => $pending,
    'post_updates' => \Drupal::service('update.post_update_registry')->getPendingUpdateFunctions(),
  ];
}

$outcome = match ($step) {
  'uninstall' => ['uninstalled' => \Drupal::service('module_installer')->uninstall(['sitebeam_test', 'sitebeam'])],
  'install' => ['installed' => \Drupal::service('module_installer')->install(['sitebeam'])],
  'configure' => (function (array $values): array {
    $settings = \Drupal::configFactory()->getEditable('sitebeam.settings');
    foreach ($values as $key => $value) {
      $settings->set($key, $value);
    }
    $settings->save();
    \Drupal::service('sitebeam.mailer_switch')->apply((bool) $settings->get('mail.route'));
    return ['mailer' => \Drupal::config('system.mail')->get('interface.default')];
  })(json_decode($argv[2], TRUE)),
  'send' => ['sent' => (bool) \Drupal::service('plugin.manager.mail')->mail('system', 'action_send_email', 'upgrade@example.com', 'en', [
    'context' => ['subject' => $argv[2] . ' kept across the upgrade', 'message' => 'Sent before the upgrade.'],
  ])['result']],
  'update' => (function (): array {
    drupal_load_updates();
    $start = array_map(static fn (array $updates) => $updates['start'], update_get_update_list());
    $updates = update_resolve_dependencies($start);
    $context = ['results' => []];
    // As the batch API runs an operation: again until it says it finished.
    $run = static function (callable $operation) use (&$context): void {
      $context['sandbox'] = [];
      for ($pass = 0; $pass < 1000; $pass++) {
        $context['finished'] = 1;
        $operation($context);
        if ($context['finished'] >= 1) {
          return;
        }
      }
    };
    $ran = [];
    foreach ($updates as $function => $update) {
      if (!$update['allowed']) {
        continue;
      }
      if (isset($start[$update['module']])) {
        \Drupal::service('update.update_hook_registry')->setInstalledVersion($update['module'], $update['number'] - 1);
        unset($start[$update['module']]);
      }
      $dependencies = !empty($update['reverse_paths']) ? array_keys($update['reverse_paths']) : [];
      $run(static fn (array &$context) => update_do_one($update['module'], $update['number'], $dependencies, $context));
      $ran[] = $function;
    }
    $post_updates = \Drupal::service('update.post_update_registry')->getPendingUpdateFunctions();
    if ($post_updates) {
      drupal_flush_all_caches();
      foreach ($post_updates as $function) {
        $run(static fn (array &$context) => update_invoke_post_update($function, $context));
        $ran[] = $function;
      }
    }
    drupal_flush_all_caches();
    return ['ran' => $ran, 'failed' => $context['results']['#abort'] ?? []];
  })(),
  'state' => (function (int $since): array {
    $data = \Drupal::config('sitebeam.settings')->getRawData();
    $violations = [];
    foreach (\Drupal::service('config.typed')->createFromNameAndData('sitebeam.settings', $data)->validate() as $violation) {
      $violations[] = $violation->getPropertyPath() . ': ' . $violation->getMessage();
    }
    $errors = [];
    // The status report's errors about the module and pending updates (core's
    // own about this test site, such as trusted hosts, are not the upgrade's).
    foreach (\Drupal::service('system.manager')->listRequirements() as $name => $requirement) {
      if (($requirement['severity'] ?? 0) >= REQUIREMENT_ERROR && preg_match('/^(sitebeam|update$|entity_update$)/', (string) $name)) {
        $errors[] = $name . ': ' . strip_tags((string) ($requirement['value'] ?? '') . ' ' . (string) ($requirement['description'] ?? ''));
      }
    }
    $messages = [];
    foreach (\Drupal::database()->select('watchdog', 'w')->fields('w', ['message', 'variables'])->condition('type', 'php')->condition('wid', $since, '>')->execute() as $entry) {
      $variables = array_filter((array) unserialize($entry->variables, ['allowed_classes' => FALSE]), 'is_scalar');
      $messages[] = strip_tags(strtr($entry->message, $variables));
    }
    return [
      'settings' => $data,
      'violations' => $violations,
      'outbox' => \Drupal::database()->select(Outbox::TABLE, 'o')->fields('o', ['recipient', 'state'])->execute()->fetchAll(\PDO::FETCH_ASSOC),
      'schema' => \Drupal::service('update.update_hook_registry')->getInstalledVersion('sitebeam'),
      'pending' => sitebeam_upgrade_pending(),
      'entity_updates' => \Drupal::entityDefinitionUpdateManager()->needsUpdates(),
      'requirement_errors' => $errors,
      'php_messages' => $messages,
      'last_wid' => (int) \Drupal::database()->query('SELECT MAX(wid) FROM {watchdog}')->fetchField(),
    ];
  })((int) ($argv[2] ?? 0)),
  'deliver' => (function (): array {
    \Drupal::database()->update(Outbox::TABLE)->fields(['next_try' => 0])->condition('state', 'waiting')->execute();
    \Drupal::service('sitebeam.outbox_sender')->deliverDue();
    return ['outbox' => \Drupal::database()->select(Outbox::TABLE, 'o')->fields('o', ['recipient', 'state'])->execute()->fetchAll(\PDO::FETCH_ASSOC)];
  })(),
};
echo json_encode($outcome), "\n";
