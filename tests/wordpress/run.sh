#!/usr/bin/env bash
# The WordPress layer: package the plugin, start one real WordPress (env.sh), run PHPUnit then Playwright
# against it, stop everything even on failure. JUnit XML: $SITEBEAM_RESULTS/wordpress-{phpunit,e2e}.xml.
set -uo pipefail
cd "$(dirname "$0")/../.."
export SITEBEAM_RESULTS="${SITEBEAM_RESULTS:-$PWD/.tmp/results}"
mkdir -p "$SITEBEAM_RESULTS"

# shellcheck source=env.sh
source tests/wordpress/env.sh
missing="$(wordpress_env_missing)"
if [ -n "$missing" ]; then
  echo "$missing" >"$SITEBEAM_RESULTS/wordpress.skipped"
  echo "SKIPPED ($missing)"
  exit 0
fi

bash wordpress-plugin/bin/package.sh || exit 1
trap stop_wordpress_env EXIT
trap 'exit 130' INT TERM
start_wordpress_env || exit 1

failed=0
echo "--- PHPUnit against WordPress $(php -r "include '$SITEBEAM_WP_ROOT/wp-includes/version.php'; echo \$wp_version;")"
phpunit -c tests/wordpress/phpunit.xml.dist --log-junit "$SITEBEAM_RESULTS/wordpress-phpunit.xml" || failed=1
echo "--- Playwright against $SITEBEAM_WP_URL"
npx playwright test -c tests/wordpress/playwright.config.ts || failed=1
if [ -s "$SITEBEAM_WP_DEBUG_LOG" ] && grep -n 'wp-content/plugins/sitebeam/' "$SITEBEAM_WP_DEBUG_LOG" >&2; then
  echo "The WordPress debug log names the plugin (above)." >&2
  failed=1
fi
exit $failed
