# shellcheck shell=bash
# Sourced by the WordPress and Drupal layers before their PHP 8.5 parts.
# php_root_ready VERSION PART: builds the Debian root of PHP VERSION, or waits for the build under way
# (tests/support/php-root.sh). Returns 0 when it is there. When Debian's registry could not be fetched, writes
# $SITEBEAM_RESULTS (default .tmp/results)/PART.skipped starting "registry unreachable:", which SITEBEAM_REQUIRE_ALL allows (the registry's
# suite, not our code), says SKIPPED and returns 2. Any other failure prints why and returns 1.
php_root_ready() {
  local version=$1 part=$2 reason status results
  results="${SITEBEAM_RESULTS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.tmp/results}"
  reason="$(bash "$(dirname "${BASH_SOURCE[0]}")/php-root.sh" "$version" 2>&1 >/dev/null)"
  status=$?
  if [ $status = 2 ]; then
    mkdir -p "$results"
    echo "registry unreachable: $(tail -n 1 <<<"$reason")" >"$results/$part.skipped"
    echo "$part: SKIPPED (Debian's registry could not be fetched: $(tail -n 1 <<<"$reason"))"
  elif [ $status != 0 ]; then
    echo "$reason" >&2
    echo "$part: the PHP $version root could not be built (above)" >&2
    status=1
  fi
  return $status
}
