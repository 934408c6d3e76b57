# Shared by the Scripts: install what is missing with apt-get, once.
# shellcheck shell=bash

# need_packages PACKAGE... — installs the Debian packages that are not installed yet.
need_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Every package a build or test needs; kept in one list so serve and test agree.
BUILD_PACKAGES=(libedit-dev libicu-dev libmicrohttpd-dev libpq-dev libqrencode-dev libsodium-dev libsqlite3-dev libssl-dev pkg-config)
# What README's first steps need besides the server: its examples pipe into nc.
SERVE_PACKAGES=(netcat-openbsd)
TEST_PACKAGES=(netcat-openbsd tmux locales postgresql strace openssl systemd less testssl.sh groff-base chromium prometheus fonts-nanum fonts-noto-color-emoji gcc)
