#!/usr/bin/env bash
# Benchmark: the outbox (wp_mail() with the instance up, through the outbox and as a direct send; the drain rate of
# 500 due mails in 4 rounds alternating the codes' order, and its median; the seconds from the instance's recovery to an empty outbox for 200 mails whose backoff had grown
# to an hour, on a one-minute cron), each against the plugin before issue #35 on a second site beside it, in the same
# run; then the plugin's added front-end time and database queries per page, on the real WordPress of the test
# layer (same environment as tests/wordpress/run.sh). Prints numbers.
#
# The baseline is the plugin at $SITEBEAM_BENCH_BASELINE (a commit; default: the last one before issue #35's outbox
# work), taken with git archive; without that commit (a shallow clone) its lines say SKIPPED.
set -uo pipefail
cd "$(dirname "$0")/../.."
baseline="${SITEBEAM_BENCH_BASELINE:-bcb920aa514199f43f50d2ec879080ec02c664b4}"

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

# The baseline's site: a copy of the site with its own database and the baseline's plugin (never served).
baseline_root=''
if git cat-file -e "$baseline^{commit}" 2>/dev/null; then
  baseline_root="$WP_ENV_DIR/baseline"
  mariadb --socket="$WP_ENV_DB_SOCKET" -uroot -e \
    "CREATE DATABASE wordpress_baseline; GRANT ALL ON wordpress_baseline.* TO 'wp'@'127.0.0.1';" || exit 1
  cp -r "$SITEBEAM_WP_ROOT" "$baseline_root"
  rm -rf "$baseline_root/wp-content/plugins/sitebeam" "$WP_ENV_DIR/baseline-src" && mkdir -p "$WP_ENV_DIR/baseline-src"
  git archive "$baseline" wordpress-plugin | tar -x -C "$WP_ENV_DIR/baseline-src" || exit 1
  mv "$WP_ENV_DIR/baseline-src/wordpress-plugin" "$baseline_root/wp-content/plugins/sitebeam"
  cp -r wordpress-plugin/assets wordpress-plugin/build "$baseline_root/wp-content/plugins/sitebeam/"
  baseline_env=(WP_ENV_DB_HOST="$WP_ENV_DB_HOST" WP_ENV_DB_NAME=wordpress_baseline SITEBEAM_WP_ROOT="$baseline_root")
  env "${baseline_env[@]}" "${SITEBEAM_PHP:-php}" tests/wordpress/site/write-config.php >"$baseline_root/wp-config.php"
  env "${baseline_env[@]}" "${SITEBEAM_PHP:-php}" tests/wordpress/site/install.php >/dev/null || exit 1
fi

failed=0
bench() { # part, then: label and WordPress root of each code to measure
  local part=$1
  shift
  while [ $# -gt 1 ]; do
    if [ -z "$2" ]; then
      echo "outbox $part ($1): SKIPPED (commit $baseline is not in this clone)"
    else
      SITEBEAM_BENCH_PART=$part SITEBEAM_BENCH_LABEL=$1 SITEBEAM_WP_ROOT=$2 "${SITEBEAM_PHP:-php}" tests/wordpress/bench/outbox.php || failed=1
    fi
    shift 2
  done
}
bench mail 'this branch' "$SITEBEAM_WP_ROOT"
# The drain, in rounds whose order alternates, so that a busy machine's swings fall on both codes alike.
drain_rounds="${SITEBEAM_BENCH_DRAIN_ROUNDS:-4}"
export SITEBEAM_BENCH_OUTBOX_MAILS="${SITEBEAM_BENCH_OUTBOX_MAILS:-500}"
drain_log="$WP_ENV_DIR/drain.log"
for ((round = 1; round <= drain_rounds; round++)); do
  if ((round % 2)); then
    bench drain 'before #35' "$baseline_root" 'this branch' "$SITEBEAM_WP_ROOT"
  else
    bench drain 'this branch' "$SITEBEAM_WP_ROOT" 'before #35' "$baseline_root"
  fi
done >"$drain_log"
cat "$drain_log"
for label in 'before #35' 'this branch'; do
  grep -F "outbox drain ($label):" "$drain_log" | sed -E 's/.* ([0-9.]+) mails\/s.*/\1/' | sort -n |
    awk -v label="$label" '{ rate[NR] = $1 } END { if (NR) printf "outbox drain (%s): median of %d rounds %.1f mails/s\n", label, NR, rate[int((NR + 1) / 2)] }'
done
bench recovery 'before #35' "$baseline_root" 'this branch' "$SITEBEAM_WP_ROOT"

cp tests/wordpress/bench/sitebeam-bench.php "$SITEBEAM_WP_ROOT/wp-content/mu-plugins/"
node tests/wordpress/bench/front-end.mjs || failed=1
exit $failed
