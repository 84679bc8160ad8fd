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

run_against_each_upstream "$junit" bash "$here/kernel.sh" "$junit-{}.xml" --filter UpstreamServiceTest
