<?php

/**
 * @file
 * Enables the module on the installed test site, without drush.
 *
 * Run from DRUPAL_ROOT: php site-setup.php. Reads DRUPAL_ADMIN_PASS. Boots
 * Drupal (site-bootstrap.php), installs sitebeam
 * and sitebeam_test, gives the admin a known password and address, adds a
 * signed-in user without Sitebeam permissions (same password), places the
 * contact block on the front page and the chat block on /node/1.
 */

declare(strict_types=1);

use Drupal\block\Entity\Block;
use Drupal\node\Entity\Node;
use Drupal\user\Entity\User;

require __DIR__ . '/site-bootstrap.php';

\Drupal::service('module_installer')->install(['sitebeam', 'sitebeam_test']);

$admin = User::load(1);
$admin->setPassword((string) getenv('DRUPAL_ADMIN_PASS'));
$admin->setEmail('admin@example.com');
$admin->save();
\Drupal::configFactory()->getEditable('system.site')->set('mail', 'site@example.com')->save();
// The contact tests post more than the default 5 messages a minute from one
// address; the allowance itself is tested in the kernel tests.
// The chat tests count their own day from no limit (0); the default of 500
// is tested in the kernel tests.
\Drupal::configFactory()->getEditable('sitebeam.settings')
  ->set('contact.flood_limit', 30)
  ->set('chat.daily_limit', 0)
  ->save();

User::create([
  'name' => 'editor',
  'mail' => 'editor@example.com',
  'pass' => (string) getenv('DRUPAL_ADMIN_PASS'),
  'status' => 1,
])->save();

Node::create(['type' => 'page', 'title' => 'Ask us', 'uid' => 1, 'status' => 1])->save();

// Block ID => its plugin, title and the one path it shows on.
$blocks = [
  'sitebeam_contact' => ['sitebeam_contact_form', 'Contact us', '<front>'],
  'sitebeam_chat' => ['sitebeam_chat', 'Ask a model', '/node/1'],
];
foreach ($blocks as $id => [$plugin, $label, $pages]) {
  Block::create([
    'id' => $id,
    'theme' => \Drupal::config('system.theme')->get('default'),
    'region' => 'content',
    'weight' => 10,
    'plugin' => $plugin,
    'settings' => ['label' => $label, 'label_display' => 'visible'],
    'visibility' => [
      'request_path' => ['id' => 'request_path', 'pages' => $pages, 'negate' => FALSE],
    ],
  ])->save();
}

echo "site ready: sitebeam enabled, contact block placed, chat block on /node/1\n";
