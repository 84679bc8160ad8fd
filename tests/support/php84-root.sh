#!/usr/bin/env bash
# Builds (once) the Debian 13 root whose PHP 8.4 and PHPUnit 11 the PHP 8.4 half of the matrix runs on:
# `mmdebstrap --variant=apt` from Debian's own registry into .tmp/trixie-root, reused while the package
# list below is unchanged (the list's checksum is the cache key). Prints the root's folder.
# Needs root (or, as a user, SITEBEAM_MMDEBSTRAP_MODE=unshare with unprivileged user namespaces).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
root="${SITEBEAM_TRIXIE_ROOT:-$repo/.tmp/trixie-root}"

packages=(
  php8.4-cli php8.4-opcache php8.4-sqlite3 php8.4-mysql php8.4-gd php8.4-xml php8.4-mbstring php8.4-curl
  php8.4-intl php8.4-zip
  phpunit php-mikey179-vfsstream php-symfony-phpunit-bridge php-phpspec-prophecy-phpunit php-symfony-yaml
)
key="trixie $(printf '%s\n' "${packages[@]}" | sort | tr '\n' ' ')"
key="$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)"

mkdir -p "$(dirname "$root")"
# The WordPress and Drupal layers ask side by side: one builds, the other waits for it.
exec 9>"$root.lock"
flock 9
if [ -x "$root/usr/bin/php" ] && [ "$(cat "$root/.sitebeam-packages" 2>/dev/null)" = "$key" ]; then
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
rm -rf "$root" "$root.partial"
# force-unsafe-io: no fsync for a folder that is rebuilt whenever it is in doubt.
mmdebstrap --quiet --mode="${SITEBEAM_MMDEBSTRAP_MODE:-auto}" --variant=apt --dpkgopt=force-unsafe-io \
  --include="$(IFS=,; echo "${packages[*]}")" trixie "$root.partial" >&2
# tests/support/php84 mounts the host's /etc/hosts over this file.
touch "$root.partial/etc/hosts"
mv "$root.partial" "$root"
echo "$key" >"$root/.sitebeam-packages"
echo "php 8.4: built the Debian 13 root $root in $((SECONDS - started)) s" >&2
echo "$root"
