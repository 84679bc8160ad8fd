# Shared by kernel.sh and browser.sh: the module inside DRUPAL_ROOT and the server stub.
# shellcheck shell=bash

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The PHP the suites run on: SITEBEAM_PHP names a command that runs as php does (tests/drupal/run.sh sets
# tests/support/php84 for Drupal 11); its /usr/bin/phpunit is the PHPUnit that goes with it.
php="${SITEBEAM_PHP:-php}"

# Checks DRUPAL_ROOT, copies the built scripts into the module (gitignored) and
# symlinks the module into DRUPAL_ROOT/modules/custom/sitebeam.
prepare_drupal_root() {
  if [ ! -f "$DRUPAL_ROOT/core/lib/Drupal.php" ] || [ ! -f "$DRUPAL_ROOT/autoload.php" ]; then
    echo "DRUPAL_ROOT=$DRUPAL_ROOT is not a Drupal codebase with vendor/ (see /work/shared/testing/drupal.md)" >&2
    return 1
  fi
  DRUPAL_ROOT="$(cd "$DRUPAL_ROOT" && pwd)"
  export DRUPAL_ROOT
  local built
  mkdir -p "$repo_root/drupal-module/js"
  for built in sitebeam.min.js sitebeam-form.min.js sitebeam-chat.min.js; do
    # Replaced whole, never rewritten in place: the other Drupal version's php -S may be serving it.
    if [ -f "$repo_root/snippet/dist/$built" ] && ! cmp -s "$repo_root/snippet/dist/$built" "$repo_root/drupal-module/js/$built"; then
      cp "$repo_root/snippet/dist/$built" "$repo_root/drupal-module/.$built.$$" &&
        mv -f "$repo_root/drupal-module/.$built.$$" "$repo_root/drupal-module/js/$built"
    fi
  done
  local link="$DRUPAL_ROOT/modules/custom/sitebeam"
  mkdir -p "$DRUPAL_ROOT/modules/custom"
  if [ -L "$link" ]; then
    rm "$link"
  elif [ -e "$link" ]; then
    echo "$link exists and is not a symlink: move it away first" >&2
    return 1
  fi
  ln -s "$repo_root/drupal-module" "$link"
}

# Starts the real server stub on a free port; sets STUB_URL and STUB_PID.
# SITEBEAM_STUB_CLI may name another build of the stub's cli.js.
start_stub() {
  local log
  log="$(mktemp)"
  node "${SITEBEAM_STUB_CLI:-$repo_root/server-stub/dist/cli.js}" --port 0 "$@" >/dev/null 2>"$log" &
  STUB_PID=$!
  local i
  # Up to 60 s: a cold node on a busy machine (a fresh CI machine) took more than 10.
  for i in $(seq 1 600); do
    STUB_URL="$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log" | head -n 1)"
    if [ -n "$STUB_URL" ]; then
      STUB_URL="${STUB_URL%/}"
      export STUB_URL
      return 0
    fi
    if ! kill -0 "$STUB_PID" 2>/dev/null; then
      break
    fi
    sleep 0.1
  done
  echo "the server stub did not start:" >&2
  cat "$log" >&2
  return 1
}

stop_pid() {
  if [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; then
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
  fi
  return 0
}
