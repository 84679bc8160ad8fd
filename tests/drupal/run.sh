#!/usr/bin/env bash
# The Drupal module's tests: static checks and unit tests always; kernel and browser tests
# against a real Drupal 10.5.8 codebase when DRUPAL_ROOT points at one.
set -uo pipefail
cd "$(dirname "$0")/../.."
results="${SITEBEAM_RESULTS:-$PWD/.tmp/results}"
mkdir -p "$results"
status=0

echo "--- drupal: static checks"
php tests/drupal/static-checks.php drupal-module "$results/drupal-static.xml" || status=1

echo "--- drupal: unit tests (no Drupal core)"
phpunit -c tests/drupal/phpunit-unit.xml --log-junit "$results/drupal-unit.xml" || status=1

if [ -z "${DRUPAL_ROOT:-}" ]; then
  for part in kernel browser; do
    echo "DRUPAL_ROOT not set" >"$results/drupal-$part.skipped"
    echo "--- drupal: $part tests SKIPPED (DRUPAL_ROOT not set)"
  done
  exit $status
fi

echo "--- drupal: kernel tests against $DRUPAL_ROOT"
bash tests/drupal/kernel.sh "$results/drupal-kernel.xml" || status=1

echo "--- drupal: browser tests against $DRUPAL_ROOT"
bash tests/drupal/browser.sh "$results/drupal-browser.xml" || status=1

exit $status
