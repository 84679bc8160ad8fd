#!/usr/bin/env bash
# The upgrade test (UpgradeTest.php) on the site tests/drupal/browser.sh installed and serves, once its
# browser tests are done: it uninstalls the module and replaces its files.
# Usage: run.sh JUNIT_FILE, with DRUPAL_ROOT, DRUPAL_URL, STUB_URL and SITEBEAM_PHP (tests/drupal/lib.sh) set.
# Without the previous release's commit in this clone (a shallow clone), JUNIT_FILE's name with .skipped says why.
set -uo pipefail
cd "$(dirname "$0")/../../.."
junit=$1

rm -f "${junit%.xml}.skipped"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
module="$(bash tests/support/previous-release.sh drupal 2>"$log")"
case $? in
  0) ;;
  3) cp "$log" "${junit%.xml}.skipped"; echo "$(basename "${junit%.xml}"): SKIPPED ($(cat "$log"))"; exit 0 ;;
  *) cat "$log" >&2; exit 1 ;;
esac
SITEBEAM_PREVIOUS_RELEASE_MODULE="$module" SITEBEAM_CURRENT_MODULE="$PWD/drupal-module" \
  SITEBEAM_DRUPAL_SERVER_LOG="$DRUPAL_ROOT/sites/sitebeam-php-server.log" \
  "${SITEBEAM_PHP:-php}" /usr/bin/phpunit --no-configuration --log-junit "$junit" tests/drupal/upgrade/UpgradeTest.php
