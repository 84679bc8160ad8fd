# Starts and stops one real WordPress for the WordPress test layer and the benchmark (sourced, not run):
# a private MariaDB, a copy of a WordPress release ($SITEBEAM_WP_SOURCE, default Debian's /usr/share/wordpress)
# with the plugin installed from dist/sitebeam-wordpress.zip, `php -S`, and the server stub as the Sitebeam
# instance. start_wordpress_env exports SITEBEAM_WP_* and SITEBEAM_STUB_URL; stop_wordpress_env stops
# everything it started.

WP_ENV_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WP_ENV_ADMIN_USER=admin
WP_ENV_ADMIN_PASSWORD='sitebeam-admin-password'
WP_ENV_API_TOKEN=dev-token

WP_ENV_DEBIAN_SOURCE=/usr/share/wordpress
# The current WordPress release, from an archive: $WORDPRESS_ARCHIVE, or wordpress-<it>.tar.xz in $SITEBEAM_PLATFORMS.
WP_ENV_CURRENT_RELEASE=7.1.0
# The PHP the site and its PHPUnit run on: SITEBEAM_PHP names a command that runs as php does (run.sh sets
# tests/support/php84 for the current release); its /usr/bin/phpunit is the PHPUnit that goes with it.

# Prints why the environment cannot start here (tools and PHP extensions, not the WordPress release), or nothing.
wordpress_env_missing() {
  local tool
  for tool in php mariadbd mariadb-install-db mariadb-admin phpunit unzip node; do
    command -v "$tool" >/dev/null || { echo "$tool not installed"; return; }
  done
  php -r 'exit(extension_loaded("mysqli") ? 0 : 1);' || { echo "php mysqli extension missing (apt-get install php-mysql)"; return; }
}

# Prints why Debian's WordPress cannot be used, or nothing.
wordpress_debian_missing() {
  [ -f "$WP_ENV_DEBIAN_SOURCE/wp-load.php" ] || { echo "Debian package wordpress not installed (apt-get install wordpress)"; return; }
  [ -d "$WP_ENV_DEBIAN_SOURCE/wp-content/themes/twentytwentythree" ] || echo "wordpress-theme-twentytwentythree not installed"
}

# The archive of the current release (WP_ENV_CURRENT_RELEASE) the layers use, or nothing when none is named.
wordpress_current_archive() {
  echo "${WORDPRESS_ARCHIVE:-${SITEBEAM_PLATFORMS:+$SITEBEAM_PLATFORMS/wordpress-$WP_ENV_CURRENT_RELEASE.tar.xz}}"
}

# The version of the WordPress release in a folder.
wordpress_version_of() {
  php -r 'include $argv[1] . "/wp-includes/version.php"; echo $wp_version;' "$1"
}

free_port() {
  php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'
}

wait_for() { # description, tries (0.1 s each), command...
  local what=$1 tries=$2
  shift 2
  for ((i = 0; i < tries; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "env: $what did not come up" >&2
  return 1
}

start_wordpress_env() {
  WP_ENV_DIR="$(mktemp -d /tmp/sitebeam-wp.XXXXXX)"
  export SITEBEAM_WP_ROOT="$WP_ENV_DIR/site"
  export SITEBEAM_WP_DEBUG_LOG="$WP_ENV_DIR/debug.log"
  export SITEBEAM_WP_ADMIN_USER="$WP_ENV_ADMIN_USER"
  export SITEBEAM_WP_ADMIN_PASSWORD="$WP_ENV_ADMIN_PASSWORD"
  export SITEBEAM_API_TOKEN_FOR_TESTS="$WP_ENV_API_TOKEN"
  local db_port web_port
  db_port="$(free_port)"
  web_port="$(free_port)"
  WP_ENV_DB_SOCKET="$WP_ENV_DIR/mysqld.sock"

  # The database lives in memory: InnoDB syncs each commit to disk, the suites commit thousands of times, and a
  # sync took 10 ms on a busy machine's shared disk. A 16 MiB redo log (96 by default) keeps it small.
  WP_ENV_DB_DIR="$(mktemp -d "${SITEBEAM_WP_DB_TMP:-/dev/shm}/sitebeam-wp-db.XXXXXX")" || return 1
  local db_options=(--no-defaults --datadir="$WP_ENV_DB_DIR" --user=root --innodb-log-file-size=16M)
  mariadb-install-db "${db_options[@]}" --auth-root-authentication-method=normal --skip-test-db \
    >"$WP_ENV_DIR/mariadb-install.log" 2>&1 || {
    cat "$WP_ENV_DIR/mariadb-install.log" >&2
    return 1
  }
  mariadbd "${db_options[@]}" --socket="$WP_ENV_DB_SOCKET" --port="$db_port" \
    --bind-address=127.0.0.1 --skip-log-bin >"$WP_ENV_DIR/mariadb.log" 2>&1 &
  WP_ENV_DB_PID=$!
  wait_for MariaDB 300 mariadb-admin --socket="$WP_ENV_DB_SOCKET" -uroot ping || return 1
  mariadb --socket="$WP_ENV_DB_SOCKET" -uroot -e \
    "CREATE DATABASE wordpress; CREATE USER 'wp'@'127.0.0.1' IDENTIFIED BY 'wp'; GRANT ALL ON wordpress.* TO 'wp'@'127.0.0.1';"

  node "$WP_ENV_REPO/server-stub/dist/cli.js" --port 0 >"$WP_ENV_DIR/stub.log" 2>&1 &
  WP_ENV_STUB_PID=$!
  wait_for "the server stub" 600 grep -q 'listening on http' "$WP_ENV_DIR/stub.log" || { cat "$WP_ENV_DIR/stub.log" >&2; return 1; }
  SITEBEAM_STUB_URL="$(grep -o 'listening on http://[^ ]*' "$WP_ENV_DIR/stub.log" | head -1 | sed 's/listening on //; s#/$##')"
  export SITEBEAM_STUB_URL

  cp -rL "${SITEBEAM_WP_SOURCE:-$WP_ENV_DEBIAN_SOURCE}" "$SITEBEAM_WP_ROOT"
  rm -f "$SITEBEAM_WP_ROOT/wp-config.php"
  export SITEBEAM_WP_URL="http://127.0.0.1:$web_port"
  WP_ENV_DB_HOST="127.0.0.1:$db_port"
  WP_ENV_DB_HOST=$WP_ENV_DB_HOST "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/write-config.php" >"$SITEBEAM_WP_ROOT/wp-config.php"
  mkdir -p "$SITEBEAM_WP_ROOT/wp-content/mu-plugins" "$SITEBEAM_WP_ROOT/wp-content/uploads"
  cp "$WP_ENV_REPO/tests/wordpress/site/"sitebeam-test-*.php "$SITEBEAM_WP_ROOT/wp-content/mu-plugins/"
  unzip -q "$WP_ENV_REPO/dist/sitebeam-wordpress.zip" -d "$SITEBEAM_WP_ROOT/wp-content/plugins"
  # The WP Consent API plugin, installed (not activated: a test turns it on) when $SITEBEAM_PLATFORMS holds it.
  local consent_api="${SITEBEAM_PLATFORMS:+$SITEBEAM_PLATFORMS/wp-consent-api-2.0.1.tar.xz}"
  if [ -n "$consent_api" ] && [ -f "$consent_api" ]; then
    tar -xJf "$consent_api" -C "$SITEBEAM_WP_ROOT/wp-content/plugins" || return 1
  fi
  "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/install.php" || return 1

  # OPcache as on any production server; workers forked after it starts share its memory. It re-checks a script's
  # timestamp on every request (by default at most every 2 s): a file the tests change (wp-config.php, a plugin
  # file) is never served stale, the flake tests/drupal/browser.sh had from settings.php.
  PHP_CLI_SERVER_WORKERS=4 "${SITEBEAM_PHP:-php}" -d opcache.enable_cli=1 -d opcache.revalidate_freq=0 -S "127.0.0.1:$web_port" -t "$SITEBEAM_WP_ROOT" \
    "$WP_ENV_REPO/tests/wordpress/site/router.php" >"$WP_ENV_DIR/php-server.log" 2>&1 &
  WP_ENV_WEB_PID=$!
  wait_for "php -S" 600 curl -fsS -o /dev/null "$SITEBEAM_WP_URL/wp-login.php" || return 1
  echo "env: WordPress at $SITEBEAM_WP_URL, stub at $SITEBEAM_STUB_URL, files in $WP_ENV_DIR"
}

# A multisite network beside the site (same MariaDB, its own database and copy of the files, never served):
# the PHPUnit suite phpunit/network loads it in-process. Exports SITEBEAM_WP_NETWORK_ROOT and _URL.
start_wordpress_network() {
  export SITEBEAM_WP_NETWORK_ROOT="$WP_ENV_DIR/network" SITEBEAM_WP_NETWORK_URL=http://network.test
  mariadb --socket="$WP_ENV_DB_SOCKET" -uroot -e \
    "CREATE DATABASE wordpress_network; GRANT ALL ON wordpress_network.* TO 'wp'@'127.0.0.1';" || return 1
  cp -r "$SITEBEAM_WP_ROOT" "$SITEBEAM_WP_NETWORK_ROOT"
  local network_env=(WP_ENV_DB_HOST="$WP_ENV_DB_HOST" WP_ENV_DB_NAME=wordpress_network
    SITEBEAM_WP_ROOT="$SITEBEAM_WP_NETWORK_ROOT" SITEBEAM_WP_URL="$SITEBEAM_WP_NETWORK_URL")
  env "${network_env[@]}" WP_ENV_NETWORK=allow "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/write-config.php" >"$SITEBEAM_WP_NETWORK_ROOT/wp-config.php"
  env "${network_env[@]}" "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/install.php" >/dev/null || return 1
  env "${network_env[@]}" "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/install-network.php" tables || return 1
  env "${network_env[@]}" WP_ENV_NETWORK=network.test "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/write-config.php" >"$SITEBEAM_WP_NETWORK_ROOT/wp-config.php"
  env "${network_env[@]}" "${SITEBEAM_PHP:-php}" "$WP_ENV_REPO/tests/wordpress/site/install-network.php" sites || return 1
}

stop_wordpress_env() {
  if [ -n "${WP_ENV_WEB_PID:-}" ]; then
    # php -S workers outlive their parent's TERM: stop them first.
    pkill -TERM -P "$WP_ENV_WEB_PID" 2>/dev/null
    kill "$WP_ENV_WEB_PID" 2>/dev/null
    wait "$WP_ENV_WEB_PID" 2>/dev/null
  fi
  if [ -n "${WP_ENV_STUB_PID:-}" ]; then
    kill "$WP_ENV_STUB_PID" 2>/dev/null
    wait "$WP_ENV_STUB_PID" 2>/dev/null
  fi
  if [ -n "${WP_ENV_DB_PID:-}" ]; then
    mariadb-admin --socket="$WP_ENV_DB_SOCKET" -uroot shutdown 2>/dev/null || kill "$WP_ENV_DB_PID" 2>/dev/null
    wait "$WP_ENV_DB_PID" 2>/dev/null
  fi
  if [ -n "${WP_ENV_DIR:-}" ] && [ -z "${SITEBEAM_KEEP_WP_ENV:-}" ]; then
    rm -rf "$WP_ENV_DIR" "${WP_ENV_DB_DIR:-}"
  fi
  WP_ENV_WEB_PID='' WP_ENV_STUB_PID='' WP_ENV_DB_PID=''
}
