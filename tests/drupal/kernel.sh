#!/usr/bin/env bash
# Kernel tests of the module on the real Drupal core in DRUPAL_ROOT, with the real server stub.
# Usage: kernel.sh JUNIT_FILE [extra phpunit arguments, e.g. --filter Contact]
# SITEBEAM_KERNEL_TESTS names another test path inside DRUPAL_ROOT than the module's Kernel folder (one
# file, such as the benchmark tests/drupal/bench.sh runs).
set -uo pipefail
# shellcheck source=tests/drupal/lib.sh
source "$(dirname "$0")/lib.sh"
junit="$1"
# Without arguments of its own the run leaves out the checks against the real service, which
# upstream.sh runs with the service started.
extra=("${@:2}")
[ ${#extra[@]} -gt 0 ] || extra=(--exclude-group sitebeam_upstream)

prepare_drupal_root || exit 1
start_stub || exit 1
trap 'stop_pid "$STUB_PID"' EXIT

work="$(mktemp -d "${SITEBEAM_KERNEL_TMP:-/dev/shm}/sitebeam-kernel.XXXXXX")"
trap 'stop_pid "$STUB_PID"; rm -rf "$work"' EXIT
mkdir -p "$DRUPAL_ROOT/sites/simpletest"

# Every kernel test runs in a PHP process of its own, which compiled Drupal anew each time: OPcache's file
# cache (PHP_INI_SCAN_DIR with a leading ':' adds this folder to PHP's own) lets each one reuse what the
# earlier ones compiled.
mkdir -p "$work/php.d" "$work/opcache"
printf 'opcache.enable_cli=1\nopcache.file_cache=%s\nopcache.file_cache_only=1\n' "$work/opcache" >"$work/php.d/sitebeam-kernel.ini"

cd "$DRUPAL_ROOT" || exit 1
PHP_INI_SCAN_DIR=":$work/php.d" \
  SITEBEAM_CONTRACT_DIR="$repo_root/contract" \
  SITEBEAM_CONFORMANCE_REPORT="$work/conformance.txt" \
  SITEBEAM_KERNEL_NAMESPACES="$work/namespaces.php" \
  SIMPLETEST_DB="sqlite://localhost/$work/kernel.sqlite" \
  SIMPLETEST_BASE_URL="http://127.0.0.1" \
  SYMFONY_DEPRECATIONS_HELPER=disabled \
  "$php" -d zend.assertions=1 -d memory_limit=1G /usr/bin/phpunit \
  -c core/phpunit.xml.dist \
  --bootstrap "$repo_root/tests/drupal/kernel-bootstrap.php" \
  --log-junit "$junit" "${extra[@]}" \
  "${SITEBEAM_KERNEL_TESTS:-modules/custom/sitebeam/tests/src/Kernel}"
status=$?
if [ -f "$work/conformance.txt" ]; then
  cat "$work/conformance.txt"
fi
exit $status
