# A throwaway Matrix homeserver (Synapse from PyPI) on 127.0.0.1 for the MatrixTransport integration tests.
# Sourced, not executed. Functions:
#   synapse_install      python venv with matrix-synapse, cached in ${AWFULBOT_TEST_CACHE:-$HOME/.cache/awfulbot-test}
#   synapse_start DIR    config + data in DIR, start, wait for /versions, export AWFULBOT_SYNAPSE_URL/_SECRET
#                        and AWFULBOT_SYNAPSE_PIDFILE (the server's pid; killing it makes the supervisor restart it)
#                        and, with AWFULBOT_SYNAPSE_METRICS=1, AWFULBOT_SYNAPSE_METRICS_URL (Synapse's own counters,
#                        which awfulbot-bench matrix reads to say what each sender asked of the homeserver)
#   synapse_stop         stop the server started by synapse_start (by its pid)
#   e2ee_client_install  a second venv with matrix-nio[e2e] + python-olm (the encrypting user of the E2EE tests);
#                        exports AWFULBOT_E2EE_PYTHON and AWFULBOT_E2EE_HUMAN (scripts/lib/e2ee-human.py)
# Every rate limit is raised. A test that wants 429s lowers the message limit of one user of its own through the
# admin API (`POST /_synapse/admin/v1/users/<id>/override_ratelimit`), so 429s happen on purpose and nowhere else.

SYNAPSE_CACHE="${AWFULBOT_TEST_CACHE:-$HOME/.cache/awfulbot-test}"
SYNAPSE_VENV="$SYNAPSE_CACHE/venv"
SYNAPSE_PID=""
SYNAPSE_SUPERVISOR_PID=""
SYNAPSE_DIR=""

synapse_install() {
  # The tests run against the Synapse version pinned in scripts/requirements-synapse.txt, not whatever is newest.
  local requirements pinned
  requirements="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/requirements-synapse.txt"
  pinned="$(sed -n 's/^matrix-synapse==//p' "$requirements")"
  if [ -x "$SYNAPSE_VENV/bin/python" ] &&
    [ "$("$SYNAPSE_VENV/bin/python" -c 'import synapse; print(synapse.__version__)' 2>/dev/null)" = "$pinned" ]; then
    return 0
  fi
  # A fresh Debian has python3 but not always its venv module (Debian splits it out).
  declare -F apt_install_missing >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
  apt_install_missing python3 python3-venv
  echo "==> installing matrix-synapse $pinned into $SYNAPSE_VENV (once; cached afterwards)"
  mkdir -p "$SYNAPSE_CACHE"
  [ -x "$SYNAPSE_VENV/bin/python" ] || quietly python3 -m venv "$SYNAPSE_VENV"
  quietly "$SYNAPSE_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
}

# The encrypting client of the end-to-end encryption tests, in its own venv so its pinned libraries never move
# Synapse's. python-olm compiles against libolm (libolm-dev) with cmake and a C++ compiler.
E2EE_VENV="$SYNAPSE_CACHE/e2ee-venv"
e2ee_client_install() {
  local requirements
  requirements="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/requirements-e2ee-client.txt"
  if ! [ -x "$E2EE_VENV/bin/python" ] || ! "$E2EE_VENV/bin/python" -c 'import nio, olm' 2>/dev/null ||
    ! cmp -s "$requirements" "$E2EE_VENV/requirements.txt"; then
    declare -F apt_install_missing >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
    apt_install_missing python3 python3-venv python3-dev libolm-dev cmake g++ make
    echo "==> installing matrix-nio[e2e] into $E2EE_VENV (once; cached afterwards)"
    mkdir -p "$SYNAPSE_CACHE"
    [ -x "$E2EE_VENV/bin/python" ] || quietly python3 -m venv "$E2EE_VENV"
    quietly "$E2EE_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$E2EE_VENV/requirements.txt"
  fi
  export AWFULBOT_E2EE_PYTHON="$E2EE_VENV/bin/python"
  AWFULBOT_E2EE_HUMAN="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/e2ee-human.py"
  export AWFULBOT_E2EE_HUMAN
}

# A port nobody listens on right now (the kernel picks it; the small race is acceptable for tests).
synapse_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

synapse_start() {
  local dir="${1:?usage: synapse_start DIR}"
  mkdir -p "$dir/data"
  dir="$(cd "$dir" && pwd)"
  SYNAPSE_DIR="$dir"
  local port
  port="${AWFULBOT_SYNAPSE_PORT:-$(synapse_free_port)}"
  if [ ! -f "$dir/homeserver.yaml" ]; then
    (cd "$dir" && "$SYNAPSE_VENV/bin/python" -m synapse.app.homeserver --server-name localhost \
      --config-path "$dir/homeserver.yaml" --data-directory "$dir/data" \
      --generate-config --report-stats=no >/dev/null)
  fi
  local metrics_port=""
  if [ "${AWFULBOT_SYNAPSE_METRICS:-0}" = 1 ]; then metrics_port="$(synapse_free_port)"; fi
  "$SYNAPSE_VENV/bin/python" - "$dir" "$port" "$metrics_port" <<'PY'
import sys, yaml
directory, port, metrics_port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
path = f"{directory}/homeserver.yaml"
cfg = yaml.safe_load(open(path))
cfg["listeners"] = [{
    "port": port, "tls": False, "type": "http", "x_forwarded": False,
    "bind_addresses": ["127.0.0.1"],
    "resources": [{"names": ["client"], "compress": False}],
}]
cfg["database"] = {"name": "sqlite3", "args": {"database": f"{directory}/data/homeserver.db"}}
assert cfg.get("registration_shared_secret"), "generated config should contain a shared secret"
cfg["enable_registration"] = False
cfg["report_stats"] = False
cfg["trusted_key_servers"] = []
cfg["suppress_key_server_warning"] = True
cfg["federation_domain_whitelist"] = []
cfg["presence"] = {"enabled": False}
cfg["url_preview_enabled"] = False
unlimited = {"per_second": 10000, "burst_count": 100000}
for k in ["rc_message", "rc_registration", "rc_registration_token_validity", "rc_admin_redaction",
          "rc_3pid_validation", "rc_joins_per_room", "rc_third_party_invite", "rc_media_create",
          "rc_room_creation", "rc_reports", "rc_profile", "rc_key_requests", "rc_user_directory",
          "rc_delayed_event_mgmt"]:
    cfg[k] = dict(unlimited)
cfg["rc_login"] = {k: dict(unlimited) for k in ("address", "account", "failed_attempts")}
cfg["rc_joins"] = {k: dict(unlimited) for k in ("local", "remote")}
cfg["rc_invites"] = {k: dict(unlimited) for k in ("per_room", "per_user", "per_issuer")}
cfg["rc_presence"] = {"per_user": dict(unlimited)}
cfg["log_config"] = f"{directory}/log.config"
if metrics_port:
    cfg["enable_metrics"] = True
    cfg["listeners"].append({"port": int(metrics_port), "type": "metrics", "bind_addresses": ["127.0.0.1"]})
yaml.safe_dump(cfg, open(path, "w"), sort_keys=False)
PY
  # Quieter log: warnings only, in the test directory.
  cat >"$dir/log.config" <<EOF
version: 1
formatters:
  precise:
    format: '%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(request)s - %(message)s'
handlers:
  file:
    class: logging.FileHandler
    formatter: precise
    filename: $dir/homeserver.log
root:
  level: WARNING
  handlers: [file]
disable_existing_loggers: false
EOF
  rm -f "$dir/stop"
  # AWFULBOT_SYNAPSE_CPUS (a taskset list, e.g. 0) keeps the server on those cores: the Matrix bench then runs on
  # the others, so a sender's own CPU does not slow the homeserver it is measured against.
  local pin=()
  if [ -n "${AWFULBOT_SYNAPSE_CPUS:-}" ]; then pin=(taskset -c "$AWFULBOT_SYNAPSE_CPUS"); fi
  # A small supervisor restarts the server whenever it exits until synapse_stop says otherwise, so a test can
  # simulate a homeserver restart by killing the pid in $AWFULBOT_SYNAPSE_PIDFILE.
  (
    while [ ! -f "$dir/stop" ]; do
      "${pin[@]}" "$SYNAPSE_VENV/bin/python" -m synapse.app.homeserver -c "$dir/homeserver.yaml" \
        >>"$dir/stdout.log" 2>&1 &
      echo $! >"$dir/synapse.pid"
      wait $! 2>/dev/null || true # no "Killed" line when a test kills the server on purpose
      [ -f "$dir/stop" ] || sleep 0.2
    done
  ) &
  SYNAPSE_SUPERVISOR_PID=$!
  SYNAPSE_PID=$SYNAPSE_SUPERVISOR_PID
  local url="http://127.0.0.1:$port"
  local waited=0
  until curl -sf "$url/_matrix/client/versions" >/dev/null 2>&1; do
    if [ "$waited" -ge 600 ]; then
      echo "error: synapse did not answer /versions within 60 s" >&2
      synapse_stop
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  export AWFULBOT_SYNAPSE_URL="$url"
  export AWFULBOT_SYNAPSE_PIDFILE="$dir/synapse.pid"
  if [ -n "$metrics_port" ]; then export AWFULBOT_SYNAPSE_METRICS_URL="http://127.0.0.1:$metrics_port/_synapse/metrics"; fi
  AWFULBOT_SYNAPSE_SECRET="$("$SYNAPSE_VENV/bin/python" -c 'import sys,yaml; print(yaml.safe_load(open(sys.argv[1]))["registration_shared_secret"])' "$dir/homeserver.yaml")"
  export AWFULBOT_SYNAPSE_SECRET
  echo "==> synapse listening on $url (pid $(cat "$dir/synapse.pid"), data in $dir)"
}

synapse_stop() {
  [ -n "$SYNAPSE_PID" ] || return 0
  touch "$SYNAPSE_DIR/stop"
  local server
  server="$(cat "$SYNAPSE_DIR/synapse.pid" 2>/dev/null || true)"
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  local waited=0
  while kill -0 "$SYNAPSE_PID" 2>/dev/null && [ "$waited" -lt 100 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$SYNAPSE_PID" 2>/dev/null; then
    [ -n "$server" ] && kill -9 "$server" 2>/dev/null || true
    kill -9 "$SYNAPSE_PID" 2>/dev/null || true
  fi
  wait "$SYNAPSE_PID" 2>/dev/null || true
  SYNAPSE_PID=""
}
