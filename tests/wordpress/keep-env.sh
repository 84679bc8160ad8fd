#!/usr/bin/env bash
# Starts one WordPress of the test layer (env.sh) and keeps it up until it is stopped, to run one PHPUnit class or
# one Playwright spec against it while working (run.sh runs everything, on both platforms):
#
#   bash tests/wordpress/keep-env.sh [current] &   # 6.1.9 on PHP 8.2, or the current release on PHP 8.4
#   # once it prints READY:
#   source .tmp/wordpress-env.sh
#   "$SITEBEAM_PHP" /usr/bin/phpunit -c tests/wordpress/phpunit.xml.dist --filter Outbox_Listing_Test
#   npx playwright test -c tests/wordpress/playwright.config.ts outbox-screens.spec.ts
#   kill %1                                         # stops WordPress, MariaDB and the stub
#
# The plugin and the test site's must-use plugins are links to the working tree: a PHP edit needs no restart (a
# widget's needs `npm run build` and package.sh). Needs `npm run build` first; the current release comes from
# $SITEBEAM_PLATFORMS, as in run.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
export SITEBEAM_RESULTS="${SITEBEAM_RESULTS:-$repo/.tmp/results}"
mkdir -p "$SITEBEAM_RESULTS"
# shellcheck source=env.sh
source tests/wordpress/env.sh
if [ "${1:-}" = current ]; then
  release=$WP_ENV_CURRENT_RELEASE
  archive="${WORDPRESS_ARCHIVE:-${SITEBEAM_PLATFORMS:?set SITEBEAM_PLATFORMS (or WORDPRESS_ARCHIVE), as for run.sh}/wordpress-$release.tar.xz}"
  target="$repo/.tmp/platforms/$(basename "$archive" .tar.xz)"
  if [ ! -f "$target/.unpacked" ]; then
    rm -rf "$target" && mkdir -p "$target" && tar -xf "$archive" -C "$target" && touch "$target/.unpacked"
  fi
  export SITEBEAM_WP_SOURCE
  SITEBEAM_WP_SOURCE="$(dirname "$(find "$target" -maxdepth 3 -name wp-load.php -print -quit)")"
  export SITEBEAM_PHP="$repo/tests/support/php84"
else
  export SITEBEAM_WP_SOURCE=$WP_ENV_DEBIAN_SOURCE SITEBEAM_PHP=php
fi
export SITEBEAM_WP_VERSION
SITEBEAM_WP_VERSION="$(wordpress_version_of "$SITEBEAM_WP_SOURCE")"
bash wordpress-plugin/bin/package.sh >/dev/null || exit 1
trap 'stop_wordpress_env; rm -f "$repo/.tmp/wordpress-env.sh"' EXIT
trap 'exit 0' INT TERM
start_wordpress_env || exit 1
rm -rf "$SITEBEAM_WP_ROOT/wp-content/plugins/sitebeam"
ln -s "$repo/wordpress-plugin" "$SITEBEAM_WP_ROOT/wp-content/plugins/sitebeam"
for file in tests/wordpress/site/sitebeam-test-*.php; do
  ln -sf "$repo/$file" "$SITEBEAM_WP_ROOT/wp-content/mu-plugins/"
done
export -p | grep -E '^declare -x SITEBEAM_' >"$repo/.tmp/wordpress-env.sh"
echo "READY: WordPress $SITEBEAM_WP_VERSION; source .tmp/wordpress-env.sh"
while :; do sleep 5; done
