#!/usr/bin/env bash
# The `upstream` layer: the project's clients against the stub and the real service (upstream
# cwcloud-api 3.16.15 and 3.15.24, see README.md), JUnit to $SITEBEAM_RESULTS/upstream.xml.
# A release whose archive is not here leaves upstream-<release>.skipped and its tests say SKIPPED;
# the stub's run always happens.
set -uo pipefail
cd "$(dirname "$0")/../.."
results="${SITEBEAM_RESULTS:-$PWD/.tmp/results}"
mkdir -p "$results"
# shellcheck source=../support/upstream.sh
source tests/support/upstream.sh

rm -f "$results/upstream-"*.skipped
for release in 3.16.15 3.15.24; do
  if upstream_unavailable "$release"; then
    echo "upstream $release: SKIPPED, $UPSTREAM_UNAVAILABLE"
    echo "$UPSTREAM_UNAVAILABLE" >"$results/upstream-$release.skipped"
  fi
done
exec npx vitest run -c tests/upstream/vitest.config.ts --reporter=default --reporter=junit \
  --outputFile.junit="$results/upstream.xml"
