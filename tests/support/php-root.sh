#!/usr/bin/env bash
# Builds (once) the Debian root a PHP of the matrix runs in, and prints its folder. Usage: php-root.sh VERSION
#   8.4: Debian 13 (trixie): PHP 8.4 and PHPUnit 11, into .tmp/trixie-root;
#   8.5: Debian sid with experimental, where PHP 8.5 is (sid serves 8.4): PHP 8.5 and PHPUnit 13, into .tmp/sid-root.
# `mmdebstrap --variant=apt` from Debian's own registry (SITEBEAM_DEBIAN_MIRROR, default deb.debian.org), reused
# while the suites and package list below are unchanged (their checksum is the cache key).
# Exit status 2 when the registry's suite itself could not be fetched (the reason on stderr): callers may call
# that part skipped, as it is the registry's, not the project's. Any other failure exits 1.
# Needs root (or, as a user, SITEBEAM_MMDEBSTRAP_MODE=unshare with unprivileged user namespaces).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
version="${1:?usage: php-root.sh 8.4|8.5}"
mirror="${SITEBEAM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# What the WordPress PHPUnit suites and the Drupal unit and kernel tests load, on each PHP.
extensions=(cli sqlite3 mysql gd xml mbstring curl intl zip)
test_packages=(phpunit php-mikey179-vfsstream php-symfony-phpunit-bridge php-phpspec-prophecy-phpunit php-symfony-yaml)
case "$version" in
  8.4)
    suites=(trixie)
    root="$repo/.tmp/trixie-root"
    packages=("${extensions[@]/#/php8.4-}" php8.4-opcache "${test_packages[@]}")
    ;;
  8.5)
    suites=(sid experimental)
    root="$repo/.tmp/sid-root"
    # PHP 8.5 has OPcache built in. Only its own packages come from experimental (pinned below): experimental's
    # php-common and php-cli are already PHP 8.6's, and the former breaks php8.5-common.
    packages=("${extensions[@]/#/php8.5-}" "${test_packages[@]}")
    pin='Package: php8.5-*\nPin: release a=experimental\nPin-Priority: 990\n'
    ;;
  *)
    echo "php-root.sh: no Debian root for PHP $version (8.4 or 8.5)" >&2
    exit 1
    ;;
esac
# The 8.4 key is the one this script had when it built trixie alone, so existing roots are kept.
key="${suites[*]} $(printf '%s\n' "${packages[@]}" | sort | tr '\n' ' ')${pin:-}"
[ "$mirror" = http://deb.debian.org/debian ] || key="$key $mirror"
key="$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)"

mkdir -p "$(dirname "$root")"
# The WordPress and Drupal layers ask side by side: one builds, the other waits for it.
exec 9>"$root.lock"
flock 9
if [ -x "$root/usr/bin/php$version" ] && [ "$(cat "$root/.sitebeam-packages" 2>/dev/null)" = "$key" ]; then
  echo "$root"
  exit 0
fi

command -v mmdebstrap >/dev/null || { echo "mmdebstrap is not installed (apt-get install mmdebstrap)" >&2; exit 1; }
started=$SECONDS
# mmdebstrap mounts /proc and /dev into the folder while it builds: a build cut short may leave them
# there, and deleting through them would reach the host's.
if findmnt -rn -o TARGET | grep -qF "$root"; then
  echo "something is mounted under $root: unmount it (findmnt | grep $root) before the root is rebuilt" >&2
  exit 1
fi
rm -rf "$root.partial"
sources=()
for suite in "${suites[@]}"; do sources+=("deb $mirror $suite main"); done
# force-unsafe-io: no fsync for a folder that is rebuilt whenever it is in doubt. sid's index is often served
# past its Valid-Until date. mmdebstrap's account goes to $root.log, shown when it fails.
hooks=()
[ -z "${pin:-}" ] || hooks=(--setup-hook="mkdir -p \"\$1/etc/apt/preferences.d\" && printf '$pin' >\"\$1/etc/apt/preferences.d/sitebeam\"")
if ! mmdebstrap --mode="${SITEBEAM_MMDEBSTRAP_MODE:-auto}" --variant=apt --dpkgopt=force-unsafe-io \
  --aptopt='Acquire::Check-Valid-Until "false"' "${hooks[@]}" \
  --include="$(IFS=,; echo "${packages[*]}")" "${suites[0]}" "$root.partial" "${sources[@]}" >"$root.log" 2>&1; then
  rm -rf "$root.partial"
  tail -n 30 "$root.log" >&2
  # The registry's part: apt could not fetch an index or a package, or a suite's index does not answer at all.
  fetch_failures='Failed to fetch|Unable to fetch|Could not resolve|Temporary failure resolving|Unable to connect|Could not connect|Connection timed out|Hash Sum mismatch|unexpected size|does not have a Release file'
  if fetch_error="$(grep -m 1 -E "^E: .*($fetch_failures)" "$root.log" || grep -m 1 -E "$fetch_failures" "$root.log")"; then
    echo "php $version: Debian's registry ($mirror, ${suites[*]}) could not be fetched: $fetch_error" >&2
    exit 2
  fi
  for suite in "${suites[@]}"; do
    if ! fetch_error="$(curl -fsS --max-time 60 -o /dev/null "$mirror/dists/$suite/InRelease" 2>&1)"; then
      echo "php $version: the Debian registry's suite $suite could not be fetched from $mirror ($fetch_error)" >&2
      exit 2
    fi
  done
  echo "php $version: mmdebstrap failed (above) although the registry's suites ${suites[*]} answer" >&2
  exit 1
fi
# tests/support/debian-php mounts the host's /etc/hosts over this file.
touch "$root.partial/etc/hosts"
# The root it replaces stays until this one is whole: a failed build leaves the last good one.
rm -rf "$root"
mv "$root.partial" "$root"
echo "$key" >"$root/.sitebeam-packages"
echo "php $version: built the Debian root $root (${suites[*]}) in $((SECONDS - started)) s" >&2
echo "$root"
