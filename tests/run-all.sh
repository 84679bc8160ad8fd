#!/usr/bin/env bash
# Every test of the repository, layer by layer. Each layer writes JUnit XML to .tmp/results/;
# a layer that cannot run here writes <layer>.skipped with the reason and is reported SKIPPED.
set -uo pipefail
cd "$(dirname "$0")/.."

export SITEBEAM_RESULTS="$PWD/.tmp/results"
rm -rf "$SITEBEAM_RESULTS"
mkdir -p "$SITEBEAM_RESULTS"

bash tests/support/system-deps.sh || exit 1

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
run_layer lint npm run lint --silent
run_layer package-lint npm run lint:package --silent
run_layer typecheck npx tsc -p tsconfig.json
run_layer unit npx vitest run --reporter=default --reporter=junit --outputFile.junit="$SITEBEAM_RESULTS/unit.xml"
run_layer size npm run size --silent
run_layer e2e npx playwright test -c tests/e2e/playwright.config.ts
run_layer wordpress bash tests/wordpress/run.sh
run_layer drupal bash tests/drupal/run.sh

node tests/support/summarize-results.mjs "$SITEBEAM_RESULTS" "${failed_layers[@]}"
