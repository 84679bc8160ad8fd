#!/usr/bin/env bash
# The module's own checks: `composer validate --strict` on its composer.json (Debian's composer); Drupal's coding
# standards (coder: Drupal and DrupalPractice); PHPCompatibility for the module's declared minimum PHP.
# coder needs phpcs-standards.tar.xz (PHP_CodeSniffer with coder, see phpcs-standards.md beside it) and a Drupal
# release archive (for Symfony's Yaml component) in the folder SITEBEAM_PLATFORMS names; PHPCompatibility needs
# phpcs-review-standards.tar.xz there too. Each says SKIPPED otherwise, and writes $SITEBEAM_RESULTS/<check>.skipped
# when that is set.
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tests/support/lint-lib.sh
source tests/support/lint-lib.sh
how_to_get="put phpcs-standards.tar.xz, phpcs-review-standards.tar.xz and a drupal-<version>.tar.xz with vendor/ in a folder and set SITEBEAM_PLATFORMS to it"
status=0

if command -v composer >/dev/null; then
  if COMPOSER_HOME="$PWD/.tmp/composer" COMPOSER_ALLOW_SUPERUSER=1 composer validate --strict --no-interaction \
    --working-dir=drupal-module; then
    echo "composer validate --strict: drupal-module/composer.json valid"
  else
    status=1
  fi
else
  lint_skip drupal-composer-validate "composer is not installed (apt-get install composer)"
fi

# The minimum PHP the module declares, in composer.json ("php": ">=8.2"), which sitebeam.info.yml must repeat.
min_php="$(php -r '$c = json_decode(file_get_contents($argv[1]), true); echo preg_replace("/^>=\s*/", "", $c["require"]["php"] ?? "");' drupal-module/composer.json)"
info_php="$(sed -n 's/^php: *//p' drupal-module/sitebeam.info.yml)"
if [ -z "$min_php" ] || [ "$min_php" != "$info_php" ]; then
  echo "drupal-module: composer.json requires PHP '$min_php', sitebeam.info.yml says php: '$info_php'; both must name the same minimum" >&2
  status=1
fi

if ! standards="$(standards_folder phpcs-standards)"; then
  lint_skip drupal-coder "$standards; $how_to_get"
  lint_skip drupal-phpcompatibility "$standards; $how_to_get"
  exit $status
fi

drupal_archive="$(ls "$SITEBEAM_PLATFORMS"/drupal-*.tar.xz 2>/dev/null | head -n 1)"
drupal_top="$(basename "${drupal_archive:-none}" .tar.xz)"
if [ -z "$drupal_archive" ]; then
  lint_skip drupal-coder "no drupal-<version>.tar.xz in $SITEBEAM_PLATFORMS (coder needs its Symfony Yaml); $how_to_get"
elif ! unpack_once "$drupal_archive" "$PWD/.tmp/lint/drupal" "$drupal_top/vendor/symfony/yaml"; then
  lint_skip drupal-coder "cannot unpack $drupal_archive"
else
  export SITEBEAM_PHPDOC_PARSER="$standards/phpdoc-parser/src"
  export SITEBEAM_SYMFONY_YAML="$PWD/.tmp/lint/drupal/$drupal_top/vendor/symfony/yaml"
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
fi

if ! review="$(standards_folder phpcs-review-standards)"; then
  lint_skip drupal-phpcompatibility "$review; $how_to_get"
elif php "$standards/phpcs/bin/phpcs" -q -s \
  --runtime-set installed_paths "$standards/phpcsutils,$standards/phpcsextra,$review/phpcompatibility" \
  --standard=PHPCompatibility --runtime-set testVersion "$min_php-" \
  --extensions=php,module,install,inc \
  --ignore='*/js/*,*/css/*' \
  drupal-module; then
  echo "PHPCompatibility: drupal-module clean for PHP $min_php and later"
else
  status=1
fi
exit $status
