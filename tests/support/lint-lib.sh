# shellcheck shell=bash
# Sourced by the lint scripts: the coding standards from the release archives in $SITEBEAM_PLATFORMS, and how a
# check that cannot run here says so.

# lint_skip NAME REASON: prints "NAME: SKIPPED (REASON)" and, when $SITEBEAM_RESULTS is set, writes NAME.skipped
# there, which SITEBEAM_REQUIRE_ALL=1 (CI) counts as a failure.
lint_skip() {
  echo "$1: SKIPPED ($2)"
  if [ -n "${SITEBEAM_RESULTS:-}" ]; then
    mkdir -p "$SITEBEAM_RESULTS"
    echo "$2" >"$SITEBEAM_RESULTS/$1.skipped"
  fi
}

# unpack_once ARCHIVE TARGET [MEMBERS]: unpacks a .tar.xz into TARGET, again only when the archive changes (its
# checksum is kept in TARGET/.sitebeam-unpacked); MEMBERS limits it to those paths.
unpack_once() {
  local archive="$1" target="$2" members="${3:-}" sum
  sum="$(sha256sum "$archive" | cut -d' ' -f1)"
  if [ -f "$target/.sitebeam-unpacked" ] && [ "$(cat "$target/.sitebeam-unpacked")" = "$sum" ]; then
    return 0
  fi
  rm -rf "$target"
  mkdir -p "$target"
  # shellcheck disable=SC2086 # members is a list of archive paths
  tar -xJf "$archive" -C "$target" $members || return 1
  echo "$sum" >"$target/.sitebeam-unpacked"
}

# standards_folder NAME: unpacks $SITEBEAM_PLATFORMS/NAME.tar.xz (phpcs-standards or phpcs-review-standards) into
# .tmp/lint/ and prints the folder holding its projects (phpcs/, wpcs/, plugin-check/…); fails, saying why, when the
# archive is not there.
standards_folder() {
  local archive="${SITEBEAM_PLATFORMS:-}/$1.tar.xz" target
  if [ -z "${SITEBEAM_PLATFORMS:-}" ] || [ ! -f "$archive" ]; then
    echo "no $1.tar.xz: set SITEBEAM_PLATFORMS to the folder holding it (see ../shared/platforms/$1.md)"
    return 1
  fi
  target="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.tmp/lint/$1"
  unpack_once "$archive" "$target" || { echo "$archive does not unpack"; return 1; }
  find "$target" -mindepth 1 -maxdepth 1 -type d -print -quit
}
