#!/usr/bin/env bash
# Makes sure the Debian packages the test layers need are present.
# As root on Debian/Ubuntu it installs what is missing; otherwise it prints the apt command and fails.
set -euo pipefail

packages=(
  chromium
  php8.2-cli php8.2-mysql php8.2-curl php8.2-xml php8.2-mbstring php8.2-zip php8.2-gd php8.2-intl
  php8.2-sqlite3
  mariadb-server wordpress wordpress-theme-twentytwentythree
  phpunit php-codesniffer
  php-mikey179-vfsstream php-symfony-phpunit-bridge php-phpspec-prophecy-phpunit php-symfony-yaml
  zip unzip
  composer
  mmdebstrap
  python3-fastapi python3-uvicorn python3-pydantic python3-email-validator python3-user-agents
  python3-jose python3-sqlalchemy python3-passlib python3-bcrypt python3-yaml python3-jinja2
  python3-requests python3-pil python3-prometheus-client
  redis-server
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all ${#packages[@]} present"
  exit 0
fi

apt_command="apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "system packages: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  $apt_command -qq
else
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Install them first (as root on Debian/Ubuntu):" >&2
  echo "  sudo apt-get update && sudo $apt_command" >&2
  exit 1
fi
