# Shared by scripts/demo and scripts/test: install the system libraries the build needs, only when missing.
# Sourced, not executed.

apt_install_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# libxml2 is the HTML parser, SQLite the store; pkg-config finds libxml2's headers; tzdata gives America/Chicago.
install_build_deps() {
  apt_install_missing libxml2-dev libsqlite3-dev pkg-config tzdata ca-certificates
}

require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: the Swift toolchain (6.1 or newer) is not on PATH; install it from swift.org first" >&2
    exit 1
  fi
}
