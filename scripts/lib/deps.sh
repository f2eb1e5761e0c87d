# Shared by scripts/demo and scripts/test: install the system libraries the build needs, only when missing.
# Sourced, not executed.

# Runs a command with its output kept in a log that is shown only when it fails (VERBOSE=1 shows it as it goes),
# so a run prints one line per step instead of the package manager's progress.
quietly() {
  if [ "${VERBOSE:-0}" = 1 ]; then
    "$@"
    return
  fi
  local log status=0
  log="$(mktemp "${TMPDIR:-/tmp}/awfulbot-step.XXXXXX")"
  "$@" >"$log" 2>&1 || status=$?
  [ "$status" -ne 0 ] && cat "$log" >&2
  rm -f "$log"
  return "$status"
}

# Installs the Debian packages that are missing. Packages never start or enable system services here: the test
# servers are started by the scripts on 127.0.0.1 and stopped again, and a machine should not gain a running (or
# boot-enabled) IRC daemon because someone ran the tests. policy-rc.d keeps dpkg from starting services; units
# the packages enable are disabled again afterwards.
apt_install_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# Written by awfulbot scripts/lib/deps.sh while installing packages: start no services.\nexit 101\n' |
      $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    made_policy=1
  fi
  local status=0
  quietly $sudo apt-get update -qq || status=$?
  [ "$status" -eq 0 ] && {
    DEBIAN_FRONTEND=noninteractive quietly $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
      status=$?
  }
  [ "$made_policy" = 1 ] && $sudo rm -f "$policy"
  return "$status"
}

# Leaves the named system services disabled (installing a server package enables its unit on Debian).
disable_system_services() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  for unit in "$@"; do
    if command -v deb-systemd-helper >/dev/null 2>&1; then
      $sudo deb-systemd-helper disable "$unit.service" >/dev/null 2>&1 || true
    fi
    if command -v systemctl >/dev/null 2>&1; then
      $sudo systemctl disable "$unit" >/dev/null 2>&1 || true
    fi
  done
}

# libxml2 is the HTML parser, SQLite the store, libolm the Matrix end-to-end encryption; pkg-config finds their
# headers; tzdata gives America/Chicago.
install_build_deps() {
  apt_install_missing libxml2-dev libsqlite3-dev libolm-dev pkg-config tzdata ca-certificates
}

require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: the Swift toolchain (6.1 or newer) is not on PATH; install it from swift.org first" >&2
    exit 1
  fi
}
