#!/usr/bin/env bash
# Browser tests: installs a fresh Drupal site (SQLite) in DRUPAL_ROOT/sites/default, enables
# the module, serves it with php -S and drives it with Playwright and Debian's Chromium against
# the real server stub.
# Usage: browser.sh JUNIT_FILE [extra playwright arguments, e.g. --grep contact]
# Without extra arguments the upgrade test (tests/drupal/upgrade) runs after them, writing JUNIT_FILE's name
# with -upgrade for -browser; browser.sh JUNIT_FILE --upgrade-only runs it alone.
set -uo pipefail
# shellcheck source=tests/drupal/lib.sh
source "$(dirname "$0")/lib.sh"
junit="$1"

prepare_drupal_root || exit 1
for built in sitebeam.min.js sitebeam-form.min.js sitebeam-chat.min.js; do
  if [ ! -f "$repo_root/drupal-module/js/$built" ]; then
    echo "snippet/dist/$built is missing: run npm run build first" >&2
    exit 1
  fi
done

site="$DRUPAL_ROOT/sites/default"
marker="$site/.sitebeam-test-site"
if [ -f "$site/settings.php" ] && [ ! -f "$marker" ]; then
  echo "$site/settings.php belongs to a site these tests did not install: refusing to replace it" >&2
  exit 1
fi

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

php_pid=""
files_dir=""
cleanup() {
  stop_pid "$php_pid"
  stop_pid "${STUB_PID:-}"
  [ -z "$files_dir" ] || rm -rf "$files_dir"
}
trap cleanup EXIT

# Models take 2 s to load: the chat tests see a model warm up, then answer.
start_stub --load-delay-ms 2000 || exit 1
token="$(curl -fsS -X POST -H 'Content-Type: application/json' \
  -d '{"email":"drupal-owner@example.com","email_api":true,"ai_api":true}' \
  "$STUB_URL/__stub/accounts" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).token))")"
if [ -z "$token" ] || [ "$token" = "undefined" ]; then
  echo "the stub did not create an account" >&2
  exit 1
fi

echo "installing a fresh Drupal site in $site"
chmod -R u+w "$site" 2>/dev/null
# A run that was killed left its files folder in memory.
case "$(readlink "$site/files")" in */sitebeam-drupal-files.*) rm -rf "$(readlink "$site/files")" ;; esac
rm -rf "$site/settings.php" "$site/sitebeam-test.services.yml" "$site/files" "$marker"
# The site's files folder, which holds its SQLite database, lives in memory: SQLite syncs each write to disk
# (10,400 fdatasync calls for the installation alone, 10 ms each on a busy machine's shared disk).
files_dir="$(mktemp -d "${SITEBEAM_DRUPAL_FILES_TMP:-/dev/shm}/sitebeam-drupal-files.XXXXXX")" || exit 1
ln -s "$files_dir" "$site/files"
(cd "$DRUPAL_ROOT" && "$php" core/scripts/drupal install standard --site-name "Sitebeam Test" -n >"$site/../sitebeam-install.log" 2>&1) || {
  cat "$site/../sitebeam-install.log" >&2
  exit 1
}
touch "$marker"
chmod u+w "$site" "$site/settings.php"
cat >>"$site/settings.php" <<PHP

// Added by the Sitebeam browser tests.
\$settings['sitebeam_api_token'] = '$token';
// The stub listens on 127.0.0.1, a loopback address the module refuses otherwise.
\$settings['sitebeam_allow_private_hosts'] = TRUE;
\$settings['extension_discovery_scan_tests'] = TRUE;
\$settings['container_yamls'][] = __DIR__ . '/sitebeam-test.services.yml';
PHP
# The outbox tests kill a sender mid-send: what it held expires in 25 s, not 2 minutes (the 20 s time-out
# and 5 s more), and pages check for due mail every 5 s.
cat >"$site/sitebeam-test.services.yml" <<'YAML'
parameters:
  sitebeam.outbox_lock_s: 25
  sitebeam.outbox_check_s: 5
YAML
admin_pass="admin-$RANDOM-$RANDOM"
(cd "$DRUPAL_ROOT" && DRUPAL_ADMIN_PASS="$admin_pass" "$php" "$repo_root/tests/drupal/site-setup.php") || exit 1

port="$(free_port)"
# php -S runs with OPcache (opcache.enable_cli does not apply to it), which by default looks at a
# script's timestamp at most every opcache.revalidate_freq = 2 s: for up to 3 s after the tests edit
# settings.php, requests still ran the old one (10.3.14 rendered pages without the new $config
# override). 0 checks on every request, as a settings.php edit needs (core's SettingsEditor::rewrite()
# invalidates the file in OPcache for the same reason).
(cd "$DRUPAL_ROOT" && exec "$php" -d opcache.revalidate_freq=0 -S "127.0.0.1:$port" .ht.router.php >"$site/../sitebeam-php-server.log" 2>&1) &
php_pid=$!
drupal_url="http://127.0.0.1:$port"
# Up to 60 s for php -S to answer (its first request compiles Drupal on a possibly busy machine).
ready=""
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null "$drupal_url/user/login" 2>/dev/null && ready=1 && break
  sleep 0.2
done
if [ -z "$ready" ]; then
  echo "php -S did not answer $drupal_url/user/login within 60 s:" >&2
  cat "$site/../sitebeam-php-server.log" >&2
  exit 1
fi

cd "$repo_root" || exit 1
status=0
if [ "${2:-}" != --upgrade-only ]; then
  SITEBEAM_PHP="$php" DRUPAL_URL="$drupal_url" DRUPAL_SETTINGS_PHP="$site/settings.php" STUB_URL="$STUB_URL" SITEBEAM_TEST_TOKEN="$token" DRUPAL_ADMIN_PASS="$admin_pass" \
    DRUPAL_BROWSER_JUNIT="$junit" DRUPAL_BROWSER_RUN="$(basename "$junit" .xml)" \
    npx playwright test -c tests/drupal/playwright.config.ts "${@:2}" || status=1
fi
# The upgrade test (tests/drupal/upgrade) uninstalls the module: it runs last, in a whole run or alone.
if [ $# -eq 1 ] || [ "${2:-}" = --upgrade-only ]; then
  upgrade_junit="${junit%.xml}"
  SITEBEAM_PHP="$php" DRUPAL_URL="$drupal_url" STUB_URL="$STUB_URL" \
    bash tests/drupal/upgrade/run.sh "${upgrade_junit%-browser}-upgrade.xml" || status=1
fi
exit $status
