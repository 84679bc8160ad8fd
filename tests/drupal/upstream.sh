#!/usr/bin/env bash
# The module's kernel checks against the real service (upstream cwcloud-api, each release served by
# tests/support/upstream.sh): Test connection, site mail, the service's refusals, the console's load.
# Usage: upstream.sh JUNIT_FILE   (writes JUNIT_FILE's name with -<release> before .xml per release, or
# -<release>.skipped saying why it could not run; needs DRUPAL_ROOT and SITEBEAM_PLATFORMS)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
support="$here/../support/upstream.sh"
junit="${1%.xml}"
# shellcheck source=tests/support/upstream.sh
source "$support"

status=0
for release in 3.16.15 3.15.24; do
  if upstream_unavailable "$release"; then
    echo "$UPSTREAM_UNAVAILABLE" >"$junit-$release.skipped"
    echo "--- drupal-upstream-$release: SKIPPED ($UPSTREAM_UNAVAILABLE)"
    continue
  fi
  start_upstream "$release" || { status=1; continue; }
  SITEBEAM_UPSTREAM_RELEASE="$release" bash "$here/kernel.sh" "$junit-$release.xml" --filter UpstreamServiceTest || status=1
  stop_upstream
done
exit $status
