#!/usr/bin/env bash
# php -l on every PHP file of the plugin and the module, then the code sniffer with each package's ruleset
# (Debian's php-codesniffer), then the WordPress Coding Standards on the plugin from
# $SITEBEAM_PLATFORMS/phpcs-standards.tar.xz, unpacked into .tmp/lint/ (SKIPPED when that archive is not there), then
# the plugin directory's checks (tests/wordpress/directory/checks.sh) and the module's (tests/drupal/lint.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t php_files < <(git ls-files --cached --others --exclude-standard -- 'wordpress-plugin/*.php' 'drupal-module/*.php' 'drupal-module/*.module' 'drupal-module/*.install' 'tests/*.php')
if [ ${#php_files[@]} -eq 0 ]; then
  echo "php lint: no PHP files"
  exit 0
fi
for file in "${php_files[@]}"; do
  php -l -n "$file" >/dev/null || { php -l "$file"; exit 1; }
done
echo "php -l: ${#php_files[@]} files, no syntax error"

for ruleset in wordpress-plugin/phpcs.xml.dist drupal-module/phpcs.xml.dist; do
  if [ -f "$ruleset" ]; then
    phpcs --standard="$ruleset" -q
    echo "phpcs: $ruleset clean"
  fi
done

# shellcheck source=support/lint-lib.sh
source tests/support/lint-lib.sh
status=0
if ! standards="$(standards_folder phpcs-standards)"; then
  echo "wpcs: SKIPPED ($standards)"
else
  (cd wordpress-plugin && php "$standards/phpcs/bin/phpcs" --standard=wpcs.xml.dist -q \
    --runtime-set installed_paths "$standards/wpcs,$standards/phpcsutils,$standards/phpcsextra") || status=1
  [ $status = 1 ] || echo "wpcs: wordpress-plugin/wpcs.xml.dist (WordPress Coding Standards) clean"
fi

# What the plugin directory checks (Plugin Check), on the built zip.
bash tests/wordpress/directory/checks.sh || status=1
# Drupal's own standards (coder), PHPCompatibility and composer validate on the module.
bash tests/drupal/lint.sh || status=1
exit $status
