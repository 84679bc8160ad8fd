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
# machine: they are built, one after the other, while the layers before WordPress and Drupal run
# (tests/support/debian-php waits for a root, or builds it).
layer_logs="$SITEBEAM_RESULTS/../layer-logs"
mkdir -p "$layer_logs"
(bash tests/support/php-root.sh 8.4; bash tests/support/php-root.sh 8.5) >/dev/null 2>"$layer_logs/php-roots.log" &

failed_layers=()
run_layer() {
  local name=$1
  shift
  echo
  echo "=== layer: $name"
  local started=$SECONDS
  if "$@"; then
    echo "=== layer $name: done in $((SECONDS - started)) s"
  else
    echo "=== layer $name: FAILED after $((SECONDS - started)) s"
    failed_layers+=("$name")
  fi
}

run_layer build npm run build
if [ ${#failed_layers[@]} -gt 0 ]; then
  echo "The build failed: no test can run." >&2
  exit 1
fi
run_layers_side_by_side() { # name:command ...
  local logs=$layer_logs entry name pids=() names=()
  for entry in "$@"; do
    name=${entry%%:*}
    # The subshell would inherit the layers that failed before it: each counts only its own failure.
    (failed_layers=(); run_layer "$name" bash -c "${entry#*:}" >"$logs/$name.log" 2>&1; [ ${#failed_layers[@]} -eq 0 ]) &
    pids+=($!) names+=("$name")
  done
  local index
  for index in "${!pids[@]}"; do
    wait "${pids[$index]}" || failed_layers+=("${names[$index]}")
    cat "$logs/${names[$index]}.log"
  done
}
# Layers that each keep about one core busy run side by side on two cores or more, each one's output
# shown whole when it ends; SITEBEAM_SERIAL=1 runs them one after the other.
side_by_side() {
  if [ "${SITEBEAM_SERIAL:-}" != 1 ] && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
    run_layers_side_by_side "$@"
  else
    local entry
    for entry in "$@"; do run_layer "${entry%%:*}" bash -c "${entry#*:}"; done
  fi
}

# The static checks are single-threaded: 40 s one after the other on 2 cores.
side_by_side 'lint:npm run lint --silent' 'package-lint:npm run lint:package --silent' \
  'typecheck:npx tsc -p tsconfig.json'
run_layer unit npx vitest run --reporter=default --reporter=junit --outputFile.junit="$SITEBEAM_RESULTS/unit.xml"
# The gzip budgets, the tag's ceilings and its first TCP segment fail the layer.
run_layer size npm run size --silent
run_layer e2e npx playwright test -c tests/e2e/playwright.config.ts
run_layer upstream bash tests/upstream/run.sh
# The WordPress and Drupal layers spend most of their time in one PHP process each, so on a machine
# with two cores or more they run side by side.
side_by_side 'wordpress:bash tests/wordpress/run.sh' 'drupal:bash tests/drupal/run.sh'

cat "$layer_logs/php-roots.log"
node tests/support/summarize-results.mjs "$SITEBEAM_RESULTS" "${failed_layers[@]}"
