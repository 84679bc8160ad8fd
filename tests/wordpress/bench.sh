#!/usr/bin/env bash
# Benchmark: the outbox (drain rate of 1,000 mails to the stub; wp_mail() with the instance up, through the
# outbox and as today's direct send), then the plugin's added front-end time and database queries per page, on
# the real WordPress of the test layer (same environment as tests/wordpress/run.sh). Prints numbers.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=env.sh
source tests/wordpress/env.sh
missing="$(wordpress_env_missing)$(wordpress_debian_missing)"
if [ -n "$missing" ]; then
  echo "wordpress bench: SKIPPED ($missing)"
  exit 0
fi
bash wordpress-plugin/bin/package.sh >/dev/null || exit 1
trap stop_wordpress_env EXIT
trap 'exit 130' INT TERM
start_wordpress_env >/dev/null || exit 1
"${SITEBEAM_PHP:-php}" tests/wordpress/bench/outbox.php
cp tests/wordpress/bench/sitebeam-bench.php "$SITEBEAM_WP_ROOT/wp-content/mu-plugins/"
node tests/wordpress/bench/front-end.mjs
