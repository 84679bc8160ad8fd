#!/usr/bin/env bash
# Drupal's own coding standards (coder: Drupal and DrupalPractice) on the module.
# Needs phpcs-standards.tar.xz (PHP_CodeSniffer with coder, see phpcs-standards.md beside it) in
# the folder SITEBEAM_PLATFORMS names, and a Drupal release archive there for Symfony's Yaml
# component; says SKIPPED otherwise, and writes $SITEBEAM_RESULTS/drupal-coder.skipped when set.
set -uo pipefail
cd "$(dirname "$0")/../.."

skip() {
  echo "coder (Drupal, DrupalPractice): SKIPPED ($1)"
  if [ -n "${SITEBEAM_RESULTS:-}" ]; then
    mkdir -p "$SITEBEAM_RESULTS"
    echo "$1; to run it: put phpcs-standards.tar.xz and a drupal-<version>.tar.xz with vendor/ in a folder and set SITEBEAM_PLATFORMS to it" >"$SITEBEAM_RESULTS/drupal-coder.skipped"
  fi
  exit 0
}

platforms="${SITEBEAM_PLATFORMS:-}"
[ -n "$platforms" ] || skip "SITEBEAM_PLATFORMS is not set"
[ -f "$platforms/phpcs-standards.tar.xz" ] || skip "$platforms/phpcs-standards.tar.xz is missing"
drupal_archive="$(ls "$platforms"/drupal-*.tar.xz 2>/dev/null | head -n 1)"
[ -n "$drupal_archive" ] || skip "no drupal-<version>.tar.xz in $platforms (coder needs its Symfony Yaml)"

# Unpacked once into .tmp/lint/, again when the archive changes.
tools="$PWD/.tmp/lint"
unpack() {
  local archive="$1" target="$2" members="${3:-}" sum
  sum="$(sha256sum "$archive" | cut -d' ' -f1)"
  if [ -f "$target/.sitebeam-unpacked" ] && [ "$(cat "$target/.sitebeam-unpacked")" = "$sum" ]; then
    return 0
  fi
  rm -rf "$target"
  mkdir -p "$target"
  # shellcheck disable=SC2086 # members is a list of archive paths
  tar -xJf "$archive" -C "$target" $members || return 1
  echo "$sum" >"$target/.sitebeam-unpacked"
}
unpack "$platforms/phpcs-standards.tar.xz" "$tools/standards" || skip "cannot unpack phpcs-standards.tar.xz"
drupal_top="$(basename "$drupal_archive" .tar.xz)"
unpack "$drupal_archive" "$tools/drupal" "$drupal_top/vendor/symfony/yaml" || skip "cannot unpack $drupal_archive"

standards="$(find "$tools/standards" -maxdepth 2 -type d -name coder -printf '%h\n' | head -n 1)"
export SITEBEAM_PHPDOC_PARSER="$standards/phpdoc-parser/src"
export SITEBEAM_SYMFONY_YAML="$tools/drupal/$drupal_top/vendor/symfony/yaml"

status=0
for standard in Drupal DrupalPractice; do
  if php "$standards/phpcs/bin/phpcs" -q \
    --bootstrap="$PWD/tests/drupal/coder-autoload.php" \
    --runtime-set installed_paths "$standards/coder/coder_sniffer,$standards/slevomat,$standards/variable-analysis" \
    --standard="$standard" \
    --extensions=php,module,install,inc,yml \
    --ignore='*/js/*,*/css/*' \
    drupal-module; then
    echo "coder: $standard clean"
  else
    status=1
  fi
done
exit $status
