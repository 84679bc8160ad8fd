#!/usr/bin/env bash
# Every test of the repository, layer by layer. Each layer writes JUnit XML to .tmp/results/;
# a layer that cannot run here writes <layer>.skipped with the reason and is reported SKIPPED.
set -uo pipefail
cd "$(dirname "$0")/.."

export SITEBEAM_RESULTS="$PWD/.tmp/results"
rm -rf "$SITEBEAM_RESULTS"
mkdir -p "$SITEBEAM_RESULTS"

bash tests/support/system-deps.sh || exit 1

# The Debian roots the PHP 8.4 half of the matrix and the PHP 8.5 runs use take a while to build on a fresh
# machine: they are built, one after the other, while the first layers run (tests/support/debian-php waits for a
# root, or builds it).
layer_logs="$SITEBEAM_RESULTS/../layers"
rm -rf "$layer_logs"
mkdir -p "$layer_logs"
(bash tests/support/php-root.sh 8.4; bash tests/support/php-root.sh 8.5) >/dev/null 2>"$layer_logs/php-roots.log" &

# The layers: name, the layers it needs (comma-separated, or -), command. They run side by side, at most
# SITEBEAM_JOBS at a time (default: as many as the cores; one more let the Chromium specs' answers time out on a
# busy 2-core machine), each as soon as what it needs has passed, in the order listed here: the longest chains first, so
# that the last to end is a short one. Each one's output is shown whole when it ends, with when it started.
# SITEBEAM_SERIAL=1 runs them one after the other, in the same order.
layers=()
declare -A layer_needs layer_command layer_alone
layer() { # name, needs, command
  layers+=("$1")
  layer_needs[$1]=${2//,/ }
  layer_command[$1]=$3
}
# A layer that runs alone: it starts when nothing else runs, and nothing starts beside it.
alone_layer() { # name, needs, command
  layer "$@"
  layer_alone[$1]=1
}
layer build - 'npm run build'
# The Vitest and Chromium layers spawn many processes and servers, each waited for within seconds: beside the PHP
# layers on two cores they timed out. They run first, alone, while the Debian roots build in the background.
alone_layer unit build 'npx vitest run --reporter=default --reporter=junit --outputFile.junit="$SITEBEAM_RESULTS/unit.xml"'
alone_layer e2e build 'npx playwright test -c tests/e2e/playwright.config.ts'
# Each Drupal version (kernel, browser and upgrade tests) and each WordPress platform is a chain of several
# minutes on one PHP process and one browser at a time: they start first, the PHP 8.2 ones while the PHP 8.4 root
# may still be building.
layer drupal-10.3.14 build 'SITEBEAM_DRUPAL_PARTS="static 10.3.14" bash tests/drupal/run.sh'
layer wordpress-6.1.9 build 'SITEBEAM_WP_PLATFORMS=minimum bash tests/wordpress/run.sh'
layer drupal-11.2.10 build 'SITEBEAM_DRUPAL_PARTS=11.2.10 bash tests/drupal/run.sh'
layer wordpress-current build 'SITEBEAM_WP_PLATFORMS=current bash tests/wordpress/run.sh'
layer wordpress-php8.5 build 'SITEBEAM_WP_PLATFORMS=php8.5 bash tests/wordpress/run.sh'
# The others fill the gaps the chains leave (the type check reads the built packages' types, lint checks the
# built plugin zip).
layer drupal-php8.5 build 'SITEBEAM_DRUPAL_PARTS=php8.5 bash tests/drupal/run.sh'
layer lint build 'npm run lint --silent'
layer typecheck build 'npx tsc -p tsconfig.json'
layer package-lint build 'npm run lint:package --silent'
# The gzip budgets, the tag's ceilings and its first TCP segment fail the layer.
layer size build 'npm run size --silent'
layer upstream build 'bash tests/upstream/run.sh'

started_at=$SECONDS
failed_layers=()
declare -A layer_state layer_pid layer_started
for name in "${layers[@]}"; do layer_state[$name]=waiting; done

# Starts NAME in the background, its output into its log.
start_layer() {
  local name=$1
  layer_state[$name]=running
  layer_started[$name]=$SECONDS
  bash -c "${layer_command[$name]}" >"$layer_logs/$name.log" 2>&1 &
  layer_pid[$name]=$!
}

# Records how NAME ended (its exit status) and shows its output.
end_layer() {
  local name=$1 status=$2
  local took=$((SECONDS - layer_started[$name])) at=$((layer_started[$name] - started_at))
  echo
  echo "=== layer: $name (started at +$at s)"
  cat "$layer_logs/$name.log"
  if [ "$status" = 0 ]; then
    layer_state[$name]=passed
    echo "=== layer $name: done in $took s"
  else
    layer_state[$name]=failed
    failed_layers+=("$name")
    echo "=== layer $name: FAILED after $took s"
  fi
}

# Whether NAME can start now: passed when everything it needs passed, never when one of them failed.
ready() {
  local need
  for need in ${layer_needs[$1]}; do
    [ "$need" = - ] && continue
    case "${layer_state[$need]}" in
      passed) ;;
      failed | not-run) return 2 ;;
      *) return 1 ;;
    esac
  done
}

jobs_at_once=$(nproc 2>/dev/null || echo 1)
[ "${SITEBEAM_SERIAL:-}" != 1 ] || jobs_at_once=1
jobs_at_once=${SITEBEAM_JOBS:-$jobs_at_once}
running=0
alone_running=0
while :; do
  waiting=0
  for name in "${layers[@]}"; do
    [ "${layer_state[$name]}" = waiting ] || continue
    ready "$name"
    case $? in
      0)
        # Nothing starts beside a layer running alone, nor after one waiting for the others to end.
        if [ "$alone_running" = 1 ]; then waiting=1; break; fi
        if [ -n "${layer_alone[$name]:-}" ]; then
          waiting=1
          [ "$running" = 0 ] || break
          start_layer "$name"
          running=$((running + 1)) alone_running=1
          break
        fi
        if [ "$running" -lt "$jobs_at_once" ]; then start_layer "$name"; running=$((running + 1)); else waiting=1; fi
        ;;
      2) layer_state[$name]=not-run; failed_layers+=("$name"); echo; echo "=== layer $name: not run (${layer_needs[$name]} failed)" ;;
      *) waiting=1 ;;
    esac
  done
  [ "$running" -gt 0 ] || break
  wait -n -p ended_pid
  status=$?
  for name in "${layers[@]}"; do
    if [ "${layer_state[$name]}" = running ] && [ "${layer_pid[$name]}" = "$ended_pid" ]; then
      end_layer "$name" "$status"
      running=$((running - 1))
      [ -z "${layer_alone[$name]:-}" ] || alone_running=0
    fi
  done
  [ "$waiting" = 1 ] || [ "$running" -gt 0 ] || break
done
echo
echo "=== all layers ended in $((SECONDS - started_at)) s"

wait
cat "$layer_logs/php-roots.log"
node tests/support/summarize-results.mjs "$SITEBEAM_RESULTS" "${failed_layers[@]}"
