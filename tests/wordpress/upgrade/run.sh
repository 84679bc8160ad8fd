#!/usr/bin/env bash
# The upgrade test (Upgrade_Test.php) on the WordPress that tests/wordpress/env.sh started: run last, as it replaces
# the plugin. Usage: run.sh VERSION PHP, after start_wordpress_env (SITEBEAM_WP_* and SITEBEAM_STUB_URL exported).
# JUnit XML: $SITEBEAM_RESULTS/wordpress-VERSION-upgrade.xml; without the previous release's commit in this clone
# (a shallow clone), wordpress-VERSION-upgrade.skipped says why.
set -uo pipefail
cd "$(dirname "$0")/../../.."
version=$1 php=$2
results="${SITEBEAM_RESULTS:-$PWD/.tmp/results}"
rm -f "$results/wordpress-$version-upgrade.skipped"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
zip="$(bash tests/support/previous-release.sh wordpress 2>"$log")"
case $? in
  0) ;;
  3) cp "$log" "$results/wordpress-$version-upgrade.skipped"; echo "wordpress $version upgrade: SKIPPED ($(cat "$log"))"; exit 0 ;;
  *) cat "$log" >&2; exit 1 ;;
esac
SITEBEAM_PREVIOUS_RELEASE_ZIP="$zip" SITEBEAM_PREVIOUS_RELEASE_VERSION="$(bash tests/support/previous-release.sh version)" \
  "$php" /usr/bin/phpunit --no-configuration --log-junit "$results/wordpress-$version-upgrade.xml" tests/wordpress/upgrade/Upgrade_Test.php
