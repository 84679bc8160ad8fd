#!/usr/bin/env bash
# php -l on every PHP file of the plugin and the module, then the code sniffer with each package's ruleset.
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

# Drupal's own standards (coder), when the platforms folder is at hand.
bash tests/drupal/lint.sh
