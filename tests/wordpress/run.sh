#!/usr/bin/env bash
# The WordPress layer, once per platform, one after the other: WordPress 6.1.9 (Debian's package, the minimum) on
# Debian 12's PHP 8.2, and the current release from an archive ($WORDPRESS_ARCHIVE, or wordpress-7.1.0.tar.xz in
# $SITEBEAM_PLATFORMS: WP_ENV_CURRENT_RELEASE in env.sh), unpacked into .tmp/platforms/, on Debian 13's PHP 8.4
# (tests/support/php84). For each: package the plugin, start a real WordPress (env.sh), run PHPUnit, then
# PHPUnit's network suite on a multisite network beside it, then Playwright, then the upgrade test; stop everything even on failure.
# JUnit XML: $SITEBEAM_RESULTS/wordpress-<version>-{phpunit,phpunit-network,e2e,upgrade}.xml; a platform that is not
# available writes wordpress-<version>.skipped and says SKIPPED.
set -uo pipefail
cd "$(dirname "$0")/../.."
export SITEBEAM_RESULTS="${SITEBEAM_RESULTS:-$PWD/.tmp/results}"
mkdir -p "$SITEBEAM_RESULTS"
releases_page=https://wordpress.org/download/releases/

# shellcheck source=env.sh
source tests/wordpress/env.sh
# shellcheck source=../support/php-root-ready.sh
source tests/support/php-root-ready.sh
current_release=$WP_ENV_CURRENT_RELEASE

skip() { # version, reason
  echo "$2" >"$SITEBEAM_RESULTS/wordpress-$1.skipped"
  echo "wordpress $1: SKIPPED ($2)"
}

# Unpacks a release archive into .tmp/platforms/ once and prints the WordPress folder inside it.
# Two layers side by side (the current release on PHP 8.4 and on 8.5) may ask at once: the first unpacks, under a lock.
unpack_release() { # archive, version
  local target="$PWD/.tmp/platforms/wordpress-$2"
  mkdir -p "$PWD/.tmp/platforms"
  (
    flock 9
    if [ ! -f "$target/.unpacked" ]; then
      rm -rf "$target" && mkdir -p "$target"
      tar -xf "$1" -C "$target" || exit 1
      touch "$target/.unpacked"
    fi
  ) 9>"$target.lock" || return 1
  dirname "$(find "$target" -maxdepth 3 -name wp-load.php -print -quit)"
}

# PHPUnit's upstream suite (Test connection, the mailer, loads and prompts) against the real service, each release
# (tests/support/upstream.sh); a release that cannot be served here says SKIPPED. Returns 1 when any failed.
run_upstream_suite() { # WordPress version, php
  # shellcheck source=../support/upstream.sh
  source tests/support/upstream.sh
  run_against_each_upstream "$SITEBEAM_RESULTS/wordpress-$1-upstream" "$2" /usr/bin/phpunit -c tests/wordpress/phpunit.xml.dist \
    --testsuite upstream --log-junit "$SITEBEAM_RESULTS/wordpress-$1-upstream-{}.xml"
}

# Runs the suites against one WordPress release folder on a PHP (a command run as php is); returns 1 when any failed.
# LABEL names its results (wordpress-<LABEL>-…; default: the version); PARTS picks suites among
# "phpunit upstream network e2e" (default: all).
run_platform() { # version, source folder, php, [label, parts]
  local version=$1 started=$SECONDS failed=0 php=$3 label=${4:-$1} parts=" ${5:-phpunit upstream network e2e} "
  export SITEBEAM_PHP=$php
  echo "=== WordPress $version ($2) on PHP $("$php" -r 'echo PHP_VERSION;'):${parts% }"
  (cd "$SITEBEAM_RESULTS" && rm -f "wordpress-$label.skipped" "wordpress-$label-phpunit.xml" "wordpress-$label-phpunit-network.xml" \
    "wordpress-$label-e2e.xml" "wordpress-$label-upstream"*)
  export SITEBEAM_WP_SOURCE=$2 SITEBEAM_WP_VERSION=$version
  trap stop_wordpress_env EXIT
  start_wordpress_env || { stop_wordpress_env; return 1; }
  if [[ $parts == *" phpunit "* ]]; then
    "$php" /usr/bin/phpunit -c tests/wordpress/phpunit.xml.dist --log-junit "$SITEBEAM_RESULTS/wordpress-$label-phpunit.xml" || failed=1
  fi
  if [[ $parts == *" upstream "* ]]; then
    run_upstream_suite "$label" "$php" || failed=1
  fi
  if [[ $parts != *" network "* ]]; then
    :
  elif start_wordpress_network; then
    SITEBEAM_WP_ROOT=$SITEBEAM_WP_NETWORK_ROOT SITEBEAM_WP_URL=$SITEBEAM_WP_NETWORK_URL "$php" /usr/bin/phpunit -c tests/wordpress/phpunit.xml.dist \
      --testsuite network --log-junit "$SITEBEAM_RESULTS/wordpress-$label-phpunit-network.xml" || failed=1
  else
    echo "wordpress $label: the multisite network did not install" >&2
    failed=1
  fi
  if [[ $parts == *" e2e "* ]]; then
    npx playwright test -c tests/wordpress/playwright.config.ts || failed=1
    # Last: it replaces the plugin with the previous release, then upgrades it (tests/wordpress/upgrade).
    bash tests/wordpress/upgrade/run.sh "$version" "$php" || failed=1
  fi
  if [ -s "$SITEBEAM_WP_DEBUG_LOG" ] && grep -inE 'plugins/sitebeam/|sitebeam/(contact-form|chat)|sitebeam-(tracker|form|chat)' "$SITEBEAM_WP_DEBUG_LOG" >&2; then
    echo "The WordPress $label debug log names the plugin (above)." >&2
    failed=1
  fi
  stop_wordpress_env
  trap - EXIT
  echo "=== WordPress $label: $([ $failed = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
  return $failed
}

# The current release's PHPUnit suites on PHP 8.5 (Debian experimental's, tests/support/php85), the site served by it
# too: any deprecation our code raises there fails them (tests/support/own-deprecations.php, and the debug log check).
# When Debian's registry cannot be fetched, the part says SKIPPED with the reason, marked as the registry's
# (summarize-results.mjs: SITEBEAM_REQUIRE_ALL allows that one skip); any other failure to build the root fails.
run_on_php85() { # version, source folder
  local status
  php_root_ready 8.5 "wordpress-$1-php8.5"
  status=$?
  [ $status = 0 ] || return $((status == 2 ? 0 : 1))
  run_platform "$1" "$2" "$PWD/tests/support/php85" "$1-php8.5" "phpunit network"
}

missing="$(wordpress_env_missing)"
archive="$(wordpress_current_archive)"
archive_version="$(basename "${archive:-wordpress-$current_release.tar.xz}" | sed -E 's/^wordpress-(.*)\.tar\.[a-z]+$/\1/')"
if [ -n "$missing" ]; then
  skip "$(wordpress_version_of "$WP_ENV_DEBIAN_SOURCE" 2>/dev/null || echo 6.1)" "$missing"
  skip "$archive_version" "$missing"
  exit 0
fi

bash wordpress-plugin/bin/package.sh || exit 1
trap 'exit 130' INT TERM
failed=0

# SITEBEAM_WP_PLATFORMS picks what runs, any of "minimum current php8.5" (default: all three; tests/run-all.sh runs each as a
# layer of its own); a part left out
# leaves no result.
wants() { [[ " ${SITEBEAM_WP_PLATFORMS:-minimum current php8.5} " == *" $1 "* ]]; }

debian_missing="$(wordpress_debian_missing)"
if ! wants minimum; then
  :
elif [ -n "$debian_missing" ]; then
  skip 6.1.9 "$debian_missing; or download 6.1.9 from $releases_page and set WORDPRESS_ARCHIVE"
else
  run_platform "$(wordpress_version_of "$WP_ENV_DEBIAN_SOURCE")" "$WP_ENV_DEBIAN_SOURCE" php || failed=1
fi

if ! wants current && ! wants php8.5; then
  :
elif [ -z "$archive" ] || [ ! -f "$archive" ]; then
  skip "$archive_version" "no release archive${archive:+ at $archive}: set SITEBEAM_PLATFORMS to a folder holding wordpress-$current_release.tar.xz, or WORDPRESS_ARCHIVE to one, downloaded from $releases_page"
elif ! source_dir="$(unpack_release "$archive" "$archive_version")" || [ ! -f "$source_dir/wp-load.php" ]; then
  echo "wordpress $archive_version: $archive does not unpack to a WordPress release" >&2
  failed=1
else
  version="$(wordpress_version_of "$source_dir")"
  # On two cores or more the PHP 8.5 suites run beside the PHP 8.4 platform (their output shown when both end).
  if wants php8.5 && wants current && [ "${SITEBEAM_SERIAL:-}" != 1 ] && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
    php85_log="$(mktemp)"
    run_on_php85 "$version" "$source_dir" >"$php85_log" 2>&1 &
    php85_pid=$!
    run_platform "$version" "$source_dir" "$PWD/tests/support/php84" || failed=1
    wait "$php85_pid" || failed=1
    cat "$php85_log"
    rm -f "$php85_log"
  else
    ! wants current || run_platform "$version" "$source_dir" "$PWD/tests/support/php84" || failed=1
    ! wants php8.5 || run_on_php85 "$version" "$source_dir" || failed=1
  fi
fi
exit $failed
