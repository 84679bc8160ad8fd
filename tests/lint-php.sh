#!/usr/bin/env bash
# php -l on every PHP file of the plugin and the module, then the code sniffer with each package's ruleset
# (Debian's php-codesniffer), then the WordPress Coding Standards on the plugin from
# $SITEBEAM_PLATFORMS/phpcs-standards.tar.xz, unpacked into .tmp/ (SKIPPED when that archive is not there).
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

standards_archive="${SITEBEAM_PLATFORMS:+$SITEBEAM_PLATFORMS/phpcs-standards.tar.xz}"
if [ -z "$standards_archive" ] || [ ! -f "$standards_archive" ]; then
  echo "wpcs: SKIPPED (no phpcs-standards.tar.xz: set SITEBEAM_PLATFORMS to the folder holding it; see ../shared/platforms/phpcs-standards.md)"
else
  standards="$PWD/.tmp/phpcs-standards"
  if [ ! -f "$standards/.unpacked" ] || [ "$standards_archive" -nt "$standards/.unpacked" ]; then
    rm -rf "$standards" && mkdir -p "$standards"
    tar -xf "$standards_archive" -C "$standards"
    touch "$standards/.unpacked"
  fi
  phpcs_bin="$(find "$standards" -maxdepth 5 -path '*/phpcs/bin/phpcs' -print -quit)"
  standards_root="$(cd "$(dirname "$phpcs_bin")/../.." && pwd)"
  (cd wordpress-plugin && php "$standards_root/phpcs/bin/phpcs" --standard=wpcs.xml.dist -q \
    --runtime-set installed_paths "$standards_root/wpcs,$standards_root/phpcsutils,$standards_root/phpcsextra")
  echo "wpcs: wordpress-plugin/wpcs.xml.dist (WordPress Coding Standards) clean"
fi

# Drupal's own standards (coder), when the platforms folder is at hand.
bash tests/drupal/lint.sh
