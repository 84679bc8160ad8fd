# Shell side of tests/upstream/serve.py, for the WordPress and Drupal harnesses. Source it, then:
#   upstream_unavailable 3.16.15 && skip "…$UPSTREAM_UNAVAILABLE"   # no archives here: say SKIPPED
#   start_upstream 3.16.15 [--cors off]   # exports SITEBEAM_UPSTREAM_URL, _TOKEN, _TOKEN_WITHOUT_AI, _TOKEN_UNCONFIRMED
#   stop_upstream
_upstream_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_upstream_python=/usr/bin/python3 # Debian's, with the python3-* packages of system-deps.sh

# Succeeds (and sets UPSTREAM_UNAVAILABLE to the reason) when RELEASE cannot be served here.
upstream_unavailable() {
  local archive="${SITEBEAM_PLATFORMS:-}/cwcloud-api-ce-$1.tar.xz"
  if [ -z "${SITEBEAM_PLATFORMS:-}" ]; then
    UPSTREAM_UNAVAILABLE="SITEBEAM_PLATFORMS is not set: put cwcloud-api-ce-$1.tar.xz (src/ of comworkio/cwcloud-api at tag ce-$1) in a folder and set SITEBEAM_PLATFORMS to it"
  elif [ ! -f "$archive" ]; then
    UPSTREAM_UNAVAILABLE="$archive is missing"
  elif [ ! -x "$_upstream_python" ]; then
    UPSTREAM_UNAVAILABLE="$_upstream_python is missing (Debian's python3 packages)"
  else
    return 1
  fi
  return 0
}

# Serves upstream RELEASE on a free port; extra arguments go to serve.py (e.g. --cors off).
start_upstream() {
  local release=$1 log line i
  shift
  log="$(mktemp)"
  "$_upstream_python" "$_upstream_repo/tests/upstream/serve.py" --release "$release" "$@" >"$log" 2>&1 &
  SITEBEAM_UPSTREAM_PID=$!
  for i in $(seq 1 600); do
    line="$(grep -m 1 'listening on http' "$log")"
    if [ -n "$line" ]; then
      SITEBEAM_UPSTREAM_URL="$(sed 's/.*listening on \(http:[^ ]*\).*/\1/' <<<"$line")"
      SITEBEAM_UPSTREAM_TOKEN="$(sed 's/.* token=\([^ ]*\).*/\1/' <<<"$line")"
      SITEBEAM_UPSTREAM_TOKEN_WITHOUT_AI="$(sed 's/.* token_without_ai=\([^ ]*\).*/\1/' <<<"$line")"
      SITEBEAM_UPSTREAM_TOKEN_UNCONFIRMED="$(sed 's/.* token_unconfirmed=\([^ ]*\).*/\1/' <<<"$line")"
      export SITEBEAM_UPSTREAM_URL SITEBEAM_UPSTREAM_TOKEN SITEBEAM_UPSTREAM_TOKEN_WITHOUT_AI \
        SITEBEAM_UPSTREAM_TOKEN_UNCONFIRMED SITEBEAM_UPSTREAM_PID
      return 0
    fi
    kill -0 "$SITEBEAM_UPSTREAM_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "upstream cwcloud-api $release did not start:" >&2
  cat "$log" >&2
  stop_upstream
  return 1
}

stop_upstream() {
  if [ -n "${SITEBEAM_UPSTREAM_PID:-}" ]; then
    kill "$SITEBEAM_UPSTREAM_PID" 2>/dev/null
    wait "$SITEBEAM_UPSTREAM_PID" 2>/dev/null
  fi
  unset SITEBEAM_UPSTREAM_PID SITEBEAM_UPSTREAM_URL SITEBEAM_UPSTREAM_TOKEN SITEBEAM_UPSTREAM_TOKEN_WITHOUT_AI \
    SITEBEAM_UPSTREAM_TOKEN_UNCONFIRMED
}

# Runs COMMAND against each release, with SITEBEAM_UPSTREAM_RELEASE set and `{}` in its arguments
# replaced by the release; a release that cannot be served here leaves SKIPPED_PREFIX-<release>.skipped
# saying why. Returns 1 when a release did not start or COMMAND failed on one.
run_against_each_upstream() { # SKIPPED_PREFIX COMMAND...
  local skipped_prefix=$1 release status=0
  shift
  for release in 3.16.15 3.15.24; do
    if upstream_unavailable "$release"; then
      echo "$UPSTREAM_UNAVAILABLE" >"$skipped_prefix-$release.skipped"
      echo "--- $(basename "$skipped_prefix")-$release: SKIPPED ($UPSTREAM_UNAVAILABLE)"
      continue
    fi
    start_upstream "$release" || { status=1; continue; }
    SITEBEAM_UPSTREAM_RELEASE="$release" "${@//\{\}/$release}" || status=1
    stop_upstream
  done
  return $status
}
