#!/usr/bin/env bash
# The Drupal module's tests: static checks and unit tests always; kernel and browser tests on each
# platform of the matrix that is available.
#
# Platforms: SITEBEAM_PLATFORMS names a folder holding drupal.org release layouts with vendor/
# (drupal-10.3.14.tar.xz, drupal-10.5.8.tar.xz, drupal-11.2.10.tar.xz); each is unpacked once into
# .tmp/platforms/. DRUPAL_ROOT instead names one Drupal codebase to run every layer against.
# A platform that cannot run leaves $SITEBEAM_RESULTS/drupal-<version>[-<part>].skipped.
set -uo pipefail
cd "$(dirname "$0")/../.."
results="${SITEBEAM_RESULTS:-$PWD/.tmp/results}"
mkdir -p "$results"
status=0
# shellcheck source=tests/support/php-root-ready.sh
source tests/support/php-root-ready.sh

# Version => the PHP it runs on: 10.3.14 (the module's minimum) on Debian 12's PHP 8.2 and PHPUnit 9.6,
# 11.2.10 (current) on Debian 13's PHP 8.4 and PHPUnit 11 (tests/support/php84). 10.5.8 is left out:
# these two bracket it, and a third version does not fit CI's 15 minutes on two cores.
matrix_versions=(10.3.14 11.2.10)
# SITEBEAM_DRUPAL_PARTS picks what runs, any of "static 10.3.14 11.2.10 php8.5" (default: all; tests/run-all.sh
# runs each as a layer of its own); a part left out leaves no result.
wants() { [[ " ${SITEBEAM_DRUPAL_PARTS:-static ${matrix_versions[*]} php8.5} " == *" $1 "* ]]; }
for version in "${matrix_versions[@]}"; do
  wants "$version" || matrix_versions=("${matrix_versions[@]/$version/}")
done
read -ra matrix_versions <<<"${matrix_versions[*]}"
declare -A matrix_php=([10.3.14]=php [11.2.10]="$PWD/tests/support/php84")
matrix_parts="kernel browser"
# The kernel checks against the real service (upstream.sh) run on one version: the module's code
# paths are the same on both, and one version's run keeps the layer within its time.
upstream_version=10.3.14
how_to_get="download the release from https://www.drupal.org/project/drupal/releases/<version>, run composer install in it, and set DRUPAL_ROOT to it (or put drupal-<version>.tar.xz with vendor/ into a folder named by SITEBEAM_PLATFORMS)"

# Usage: skip VERSION PART-NAME REASON
skip() {
  local version="$1" part="$2" reason="$3"
  echo "$reason; to run it: ${how_to_get//<version>/$version}" >"$results/$part.skipped"
  echo "--- $part: SKIPPED ($reason)"
}

# Unpacks drupal-VERSION.tar.xz from SITEBEAM_PLATFORMS into .tmp/platforms/ unless an intact copy
# (same archive checksum, core and vendor present) is there; prints the codebase folder.
unpack_platform() {
  local version="$1"
  local archive="$SITEBEAM_PLATFORMS/drupal-$version.tar.xz"
  local target="$PWD/.tmp/platforms/drupal-$version"
  local marker="$target/.sitebeam-unpacked"
  [ -f "$archive" ] || return 1
  local sum
  sum="$(sha256sum "$archive" | cut -d' ' -f1)"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$sum" ] && [ -f "$target/core/lib/Drupal.php" ] && [ -f "$target/autoload.php" ] && [ -d "$target/vendor" ]; then
    echo "$target"
    return 0
  fi
  rm -rf "$target" "$target.partial"
  mkdir -p "$target.partial"
  tar -xJf "$archive" -C "$target.partial" || return 1
  mv "$target.partial/drupal-$version" "$target" && rmdir "$target.partial" || return 1
  echo "$sum" >"$marker"
  echo "$target"
}

drupal_version_of() {
  sed -n "s/.*const VERSION = '\([^']*\)'.*/\1/p" "$1/core/lib/Drupal.php"
}

# The PHP version (major.minor) the command SITEBEAM_PHP (default php) runs.
php_version_of() {
  "${SITEBEAM_PHP:-php}" -r 'echo PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION;'
}

run_part() {
  local version="$1" part="$2" root="$3" started
  started=$SECONDS
  echo "--- drupal $version: $part tests on PHP $(php_version_of) against $root"
  DRUPAL_ROOT="$root" bash "tests/drupal/$part.sh" "$results/drupal-$version-$part.xml" || status=1
  echo "--- drupal $version: $part tests took $((SECONDS - started)) s"
}

# The unit tests (no Drupal core) on the PHP and PHPUnit SITEBEAM_PHP runs.
run_unit_tests() {
  local php_version
  php_version="$(php_version_of)" || { echo "--- drupal: PHP ${SITEBEAM_PHP:-php} does not run" >&2; return 1; }
  echo "--- drupal: unit tests (no Drupal core) on PHP $php_version"
  "${SITEBEAM_PHP:-php}" /usr/bin/phpunit -c tests/drupal/phpunit-unit.xml --log-junit "$results/drupal-unit-php$php_version.xml"
}

# The unit tests on PHP 8.5 and PHPUnit 13 too (Debian experimental's, tests/support/php85), where a deprecation
# raised in the module's or the tests' files fails them (tests/support/own-deprecations.php); with
# SITEBEAM_DRUPAL_PHP85_KERNEL=1 also Drupal 11.2.10's kernel tests on PHP 8.5, with PHPUnit 11 (that of the 8.4
# root: Drupal 11.2's test framework does not load under PHPUnit 13), off by default for CI's time. When Debian's
# registry cannot be fetched they say SKIPPED, marked as the registry's (tests/support/php-root-ready.sh).
run_php85_parts() {
  local ready root
  php_root_ready 8.5 drupal-unit-php8.5
  ready=$?
  [ $ready = 0 ] || return $((ready == 2 ? 0 : 1))
  rm -f "$results/drupal-unit-php8.5.skipped"
  SITEBEAM_PHP="$PWD/tests/support/php85" run_unit_tests || status=1
  if [ "${SITEBEAM_DRUPAL_PHP85_KERNEL:-}" = 1 ] && [ -n "${SITEBEAM_PLATFORMS:-}" ] && root="$(unpack_platform 11.2.10)"; then
    SITEBEAM_PHP="$PWD/tests/support/php85" SITEBEAM_PHP85_PHPUNIT_FROM=8.4 run_part 11.2.10-php8.5 kernel "$root"
  fi
}

if wants static; then
  echo "--- drupal: static checks"
  php tests/drupal/static-checks.php drupal-module "$results/drupal-static.xml" || status=1
fi

if [ -n "${DRUPAL_ROOT:-}" ]; then
  run_unit_tests || status=1
  version="$(drupal_version_of "$DRUPAL_ROOT" 2>/dev/null)"
  for part in $matrix_parts; do
    run_part "${version:-unknown}" "$part" "$DRUPAL_ROOT"
  done
  exit $status
fi

# Runs the unit tests on the version's PHP, then every part of the version that can run here.
run_version() {
  local version="$1" root part
  export SITEBEAM_PHP="${matrix_php[$version]}"
  run_unit_tests || status=1
  if [ -z "${SITEBEAM_PLATFORMS:-}" ]; then
    for part in $matrix_parts; do
      skip "$version" "drupal-$version-$part" "no Drupal $version codebase (neither SITEBEAM_PLATFORMS nor DRUPAL_ROOT is set)"
    done
    return 0
  fi
  root="$(unpack_platform "$version")" || {
    for part in $matrix_parts; do
      skip "$version" "drupal-$version-$part" "$SITEBEAM_PLATFORMS/drupal-$version.tar.xz is missing or cannot be unpacked"
    done
    return 0
  }
  for part in $matrix_parts; do
    run_part "$version" "$part" "$root"
  done
  [ "$version" != "$upstream_version" ] || run_part "$version" upstream "$root"
  return $status
}

# Each version spends most of its time waiting on one PHP process or on Chromium, so on a machine
# with two cores or more the versions run side by side, each with its own site, server and ports;
# each one's output is shown whole when it ends. SITEBEAM_SERIAL=1 runs them in turn.
if [ "${SITEBEAM_SERIAL:-}" != 1 ] && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
  logs="$(dirname "$results")/layer-logs"
  mkdir -p "$logs"
  pids=()
  for version in "${matrix_versions[@]}"; do
    run_version "$version" >"$logs/drupal-$version.log" 2>&1 &
    pids+=($!)
  done
  for index in "${!pids[@]}"; do
    wait "${pids[$index]}" || status=1
    cat "$logs/drupal-${matrix_versions[$index]}.log"
  done
else
  for version in "${matrix_versions[@]}"; do
    run_version "$version"
  done
fi
if wants php8.5; then
  run_php85_parts || status=1
fi

exit $status
