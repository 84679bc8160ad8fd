<?php

/**
 * @file
 * Static checks of the Drupal module, without Drupal core.
 *
 * Every YAML file parses; every class named by services, routes, plugins,
 * hooks and forms exists as a file declaring that class (and the method a
 * route names); every library file and config schema entry is there.
 * Usage: php static-checks.php MODULE_DIR JUNIT_FILE
 */

declare(strict_types=1);

require_once '/usr/share/php/Symfony/Component/Yaml/autoload.php';

use Symfony\Component\Yaml\Exception\ParseException;
use Symfony\Component\Yaml\Yaml;

[, $module_dir, $junit_file] = $argv + [NULL, NULL, NULL];
if (!$module_dir || !$junit_file) {
  fwrite(STDERR, "Usage: php static-checks.php MODULE_DIR JUNIT_FILE\n");
  exit(2);
}
$module_dir = rtrim(realpath($module_dir), '/');
$namespaces = [
  'Drupal\\sitebeam\\' => $module_dir . '/src/',
  'Drupal\\sitebeam_test\\' => $module_dir . '/tests/modules/sitebeam_test/src/',
  'Drupal\\Tests\\sitebeam\\' => $module_dir . '/tests/src/',
];
$results = [];

/**
 * Records one check: a list of problems, empty when it passed.
 */
$check = static function (string $name, array $problems) use (&$results): void {
  $results[$name] = $problems;
  echo ($problems ? 'FAIL ' : 'ok   ') . $name . "\n";
  foreach ($problems as $problem) {
    echo "       $problem\n";
  }
};

/**
 * The file a module class lives in, or NULL for a class outside the module.
 */
$class_file = static function (string $class) use ($namespaces): ?string {
  $class = ltrim($class, '\\');
  foreach ($namespaces as $prefix => $dir) {
    if (str_starts_with($class, $prefix)) {
      return $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    }
  }
  return NULL;
};

/**
 * Problems with a named class (and method): missing file or declaration.
 */
$class_problems = static function (string $class, string $where, ?string $method = NULL) use ($class_file): array {
  $file = $class_file($class);
  if ($file === NULL) {
    return str_starts_with(ltrim($class, '\\'), 'Drupal\\sitebeam') ? ["$where: $class is outside the module's namespaces"] : [];
  }
  if (!is_file($file)) {
    return ["$where: $class has no file (expected $file)"];
  }
  $source = file_get_contents($file);
  $namespace = substr(ltrim($class, '\\'), 0, strrpos(ltrim($class, '\\'), '\\'));
  $short = substr($class, strrpos($class, '\\') + 1);
  $problems = [];
  if (!preg_match('/^namespace ' . preg_quote($namespace, '/') . ';/m', $source)) {
    $problems[] = "$where: $file does not declare namespace $namespace";
  }
  if (!preg_match('/^(final |abstract )?(class|interface|trait) ' . preg_quote($short, '/') . '\b/m', $source)) {
    $problems[] = "$where: $file does not declare $short";
  }
  if ($method !== NULL && !preg_match('/public (static )?function ' . preg_quote($method, '/') . '\(/', $source)) {
    $problems[] = "$where: $class has no public method $method()";
  }
  return $problems;
};

$yaml_files = [];
$iterator = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($module_dir, FilesystemIterator::SKIP_DOTS));
foreach ($iterator as $file) {
  if (preg_match('/\.ya?ml$/', $file->getFilename())) {
    $yaml_files[] = $file->getPathname();
  }
}
sort($yaml_files);
$parsed = [];
$problems = [];
foreach ($yaml_files as $file) {
  try {
    // Custom tags as Drupal's own loader reads them (!service_closure…).
    $parsed[substr($file, strlen($module_dir) + 1)] = Yaml::parseFile($file, Yaml::PARSE_CUSTOM_TAGS) ?? [];
  }
  catch (ParseException $e) {
    $problems[] = basename($file) . ": " . $e->getMessage();
  }
}
$check(sprintf('every YAML file parses (%d files)', count($yaml_files)), $problems);

$info = $parsed['sitebeam.info.yml'] ?? [];
$check('info: a module for ^10.3 || ^11 with a settings route', array_values(array_filter([
  ($info['type'] ?? NULL) === 'module' ? NULL : 'type must be module',
  ($info['core_version_requirement'] ?? NULL) === '^10.3 || ^11' ? NULL : 'core_version_requirement must be ^10.3 || ^11',
  isset($parsed['sitebeam.routing.yml'][$info['configure'] ?? '']) ? NULL : 'configure names no route of the module',
  in_array('contact', array_map(fn ($d) => preg_replace('/^.*:/', '', $d), $info['dependencies'] ?? []), TRUE) ? 'must not depend on core contact' : NULL,
])));

$problems = [];
foreach (['sitebeam.services.yml', 'tests/modules/sitebeam_test/sitebeam_test.services.yml'] as $services_file) {
  foreach ($parsed[$services_file]['services'] ?? [] as $id => $definition) {
    if (is_array($definition) && isset($definition['class'])) {
      $problems = array_merge($problems, $class_problems($definition['class'], "service $id"));
    }
    if (str_contains((string) $id, '\\')) {
      $problems = array_merge($problems, $class_problems((string) $id, "service $id"));
    }
    if (is_string($definition) && str_starts_with($definition, '@') && !isset($parsed[$services_file]['services'][substr($definition, 1)])) {
      $problems[] = "alias $id points at unknown service $definition";
    }
  }
}
$check('services: every class exists', $problems);

$problems = [];
foreach ($parsed['sitebeam.routing.yml'] ?? [] as $route => $definition) {
  foreach (['_form', '_controller'] as $key) {
    if (isset($definition['defaults'][$key])) {
      [$class, $method] = array_pad(explode('::', $definition['defaults'][$key], 2), 2, NULL);
      $problems = array_merge($problems, $class_problems($class, "route $route", $method));
    }
  }
  if (!isset($definition['requirements']) || $definition['requirements'] === []) {
    $problems[] = "route $route has no access requirement";
  }
}
foreach ($parsed['sitebeam.links.menu.yml'] ?? [] as $link => $definition) {
  if (!isset($parsed['sitebeam.routing.yml'][$definition['route_name'] ?? ''])) {
    $problems[] = "menu link $link names an unknown route";
  }
}
// The module's own permissions, and core's that its routes use.
$permissions = array_merge(array_keys($parsed['sitebeam.permissions.yml'] ?? []), ['access content']);
foreach ($parsed['sitebeam.routing.yml'] ?? [] as $route => $definition) {
  $permission = $definition['requirements']['_permission'] ?? NULL;
  if ($permission !== NULL && !in_array($permission, $permissions, TRUE)) {
    $problems[] = "route $route requires undeclared permission '$permission'";
  }
}
$check('routes: every form and controller class and method exists', $problems);

$problems = [];
$plugin_files = glob($module_dir . '/src/Plugin/{Mail,Block,Validation/Constraint}/*.php', GLOB_BRACE) ?: [];
foreach ($plugin_files as $file) {
  $source = file_get_contents($file);
  $relative = substr($file, strlen($module_dir) + 1);
  if (str_ends_with($file, 'ConstraintValidator.php')) {
    continue;
  }
  if (!preg_match('/^#\[(Mail|Block|Constraint)\(\s*id: \'([a-z_A-Z]+)\'/m', $source, $match)) {
    $problems[] = "$relative has no plugin attribute with an id";
    continue;
  }
  $class = 'Drupal\\sitebeam\\' . str_replace('/', '\\', substr($relative, 4, -4));
  $problems = array_merge($problems, $class_problems($class, "plugin {$match[2]}"));
  if ($match[1] === 'Constraint') {
    $problems = array_merge($problems, $class_problems($class . 'Validator', "plugin {$match[2]} validator", 'validate'));
  }
}
$mail_plugin = $module_dir . '/src/Plugin/Mail/SitebeamMail.php';
if (!is_file($mail_plugin) || !str_contains(file_get_contents($mail_plugin), "id: 'sitebeam_mail'")) {
  $problems[] = 'the sitebeam_mail Mail plugin is missing';
}
$check(sprintf('plugins: every attribute-declared class exists (%d files)', count($plugin_files)), $problems);

$problems = [];
foreach ([$module_dir . '/sitebeam.module', $module_dir . '/tests/modules/sitebeam_test/sitebeam_test.module'] as $module_file) {
  preg_match_all('/\\\\Drupal::service\((\w+)::class\)->(\w+)\(/', (string) file_get_contents($module_file), $calls, PREG_SET_ORDER);
  preg_match_all('/^use (Drupal\\\\[\w\\\\]+);/m', (string) file_get_contents($module_file), $uses);
  $imports = [];
  foreach ($uses[1] as $use) {
    $imports[substr($use, strrpos($use, '\\') + 1)] = $use;
  }
  foreach ($calls as [, $short, $method]) {
    $problems = array_merge($problems, $class_problems($imports[$short] ?? $short, basename($module_file), $method));
  }
  preg_match_all('/^function (\w+)\(/m', (string) file_get_contents($module_file), $functions);
  preg_match_all('/#\[LegacyHook\]\s*\nfunction (\w+)/', (string) file_get_contents($module_file), $legacy);
  foreach (array_diff($functions[1], $legacy[1]) as $function) {
    $problems[] = basename($module_file) . ": $function() lacks #[LegacyHook]";
  }
}
foreach (glob($module_dir . '/src/Hook/*.php') ?: [] as $hook_file) {
  $class = 'Drupal\\sitebeam\\Hook\\' . basename($hook_file, '.php');
  if (!isset($parsed['sitebeam.services.yml']['services'][$class])) {
    $problems[] = "$class is not a service: Drupal 10.3 to 11.0 could not call it";
  }
}
$check('hooks: every procedural shim calls an existing hook method', $problems);

$problems = [];
foreach (['sitebeam.libraries.yml' => $module_dir, 'tests/modules/sitebeam_test/sitebeam_test.libraries.yml' => $module_dir . '/tests/modules/sitebeam_test'] as $libraries_file => $base) {
  foreach ($parsed[$libraries_file] ?? [] as $library => $definition) {
    $files = array_keys($definition['js'] ?? []);
    foreach ($definition['css'] ?? [] as $group) {
      $files = array_merge($files, array_keys($group));
    }
    foreach ($files as $file) {
      $built = in_array(basename($file), ['sitebeam.min.js', 'sitebeam-form.min.js', 'sitebeam-chat.min.js'], TRUE);
      if (!$built && !is_file("$base/$file")) {
        $problems[] = "library $library: $file is missing";
      }
    }
  }
}
$check('libraries: every file exists (built scripts are copied in at package time)', $problems);

$problems = [];
$schema = $parsed['config/schema/sitebeam.schema.yml'] ?? [];
foreach (glob($module_dir . '/config/install/*.yml') ?: [] as $install_file) {
  $name = basename($install_file, '.yml');
  if (!isset($schema[$name])) {
    $problems[] = "config/install/$name.yml has no schema";
    continue;
  }
  $walk = static function (array $data, array $mapping, string $path) use (&$walk, &$problems, $schema): void {
    foreach ($data as $key => $value) {
      // A type defined in the same file stands for its mapping.
      $definition = ($mapping[$key] ?? []) + ($schema[$mapping[$key]['type'] ?? ''] ?? []);
      if ($path === '' && $key === 'langcode') {
        // Core's config_object type has it.
        continue;
      }
      if (!isset($mapping[$key])) {
        $problems[] = "$path$key is not in the schema";
      }
      elseif (is_array($value) && isset($definition['mapping'])) {
        $walk($value, $definition['mapping'], "$path$key.");
      }
    }
    foreach (array_keys($mapping) as $key) {
      if (!array_key_exists($key, $data)) {
        $problems[] = "$path$key has no default value";
      }
    }
  };
  $walk($parsed["config/install/$name.yml"], $schema[$name]['mapping'] ?? [], '');
}
$check('config: every default value has a schema and every schema key a default', $problems);

// Defaults the contract states are written into config/install by hand (YAML cannot name a constant).
$contract = (string) file_get_contents($module_dir . '/src/Contract.php');
$settings = $parsed['config/install/sitebeam.settings.yml'] ?? [];
$problems = [];
foreach (['CHAT_DAILY_LIMIT' => ['chat', 'daily_limit']] as $constant => [$group, $key]) {
  preg_match('/const ' . $constant . ' = (\d+);/', $contract, $match);
  if (($match[1] ?? NULL) === NULL || (string) ($settings[$group][$key] ?? '') !== $match[1]) {
    $problems[] = "config/install/sitebeam.settings.yml: $group.$key is " . var_export($settings[$group][$key] ?? NULL, TRUE) . ', the contract says ' . ($match[1] ?? 'nothing') . " ($constant)";
  }
}
$check('config: the defaults the contract states', $problems);

$failures = count(array_filter($results));
$xml = new DOMDocument('1.0', 'UTF-8');
$xml->formatOutput = TRUE;
$suite = $xml->appendChild($xml->createElement('testsuite'));
$suite->setAttribute('name', 'drupal-static');
$suite->setAttribute('tests', (string) count($results));
$suite->setAttribute('failures', (string) $failures);
foreach ($results as $name => $problems) {
  $case = $suite->appendChild($xml->createElement('testcase'));
  $case->setAttribute('classname', 'drupal.static');
  $case->setAttribute('name', $name);
  if ($problems) {
    $failure = $case->appendChild($xml->createElement('failure'));
    $failure->setAttribute('message', $problems[0]);
    $failure->appendChild($xml->createTextNode(implode("\n", $problems)));
  }
}
$testsuites = $xml->createElement('testsuites');
$xml->replaceChild($testsuites, $suite);
$testsuites->appendChild($suite);
$xml->save($junit_file);
exit($failures === 0 ? 0 : 1);
