# A throwaway IRC network for the IRC transport tests: InspIRCd (plain + TLS ports) linked to Atheme services
# (NickServ, SaslServ with PLAIN), on 127.0.0.1 only. Sourced by scripts/test and scripts/with-ircd.
#
#   ircd_install        installs inspircd and atheme-services from Debian when missing
#   ircd_start DIR      writes configs, a test CA and server certificate into DIR, starts both, registers the
#                       bot's account (and a tester account) with NickServ, and exports AWFULBOT_IRC_* (below)
#   ircd_stop           stops both (by PID) and unsets nothing; DIR is left for post-mortems
#
# Exported by ircd_start:
#   AWFULBOT_IRC_HOST, AWFULBOT_IRC_PORT (plain), AWFULBOT_IRC_TLS_PORT, AWFULBOT_IRC_CA_FILE,
#   AWFULBOT_IRC_ACCOUNT / AWFULBOT_IRC_PASSWORD (the bot's NickServ account),
#   AWFULBOT_IRC_CLIENT_CERT / AWFULBOT_IRC_CLIENT_KEY (a TLS client certificate whose fingerprint the bot's
#     account accepts, for SASL EXTERNAL),
#   AWFULBOT_IRC_TESTER_ACCOUNT / AWFULBOT_IRC_TESTER_PASSWORD (a second account for permission tests),
#   AWFULBOT_IRC_RESTART (a script that restarts InspIRCd on the same ports and waits until it accepts again),
#   AWFULBOT_IRC_CONTROL_DIR (tests drop NAME.restart there, holding the seconds to stay down; a watcher started
#     here runs the restart script and then writes NAME.done: tests never spawn processes themselves, which
#     hangs in Swift concurrency on Linux, and the restarted server keeps a normal signal mask),
#   AWFULBOT_IRC_DIR (where configs and logs are).

ircd_install() {
  local missing=()
  command -v inspircd >/dev/null 2>&1 || [ -x /usr/sbin/inspircd ] || missing+=(inspircd)
  [ -x /usr/bin/atheme-services ] || missing+=(atheme-services)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  declare -F apt_install_missing >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
  [ ${#missing[@]} -eq 0 ] || apt_install_missing "${missing[@]}"
  # The tests start their own InspIRCd and Atheme; the system copies stay off and disabled (also when an earlier
  # install, by hand or by an older script, left them enabled).
  disable_system_services inspircd atheme-services
}

# Free TCP ports on 127.0.0.1, one per line (bound once by the kernel, then released).
_ircd_free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
for s in socks:
    print(s.getsockname()[1])
PY
}

# Waits until a TCP port on 127.0.0.1 accepts connections (at most $2 tenths of a second).
_ircd_wait_port() {
  local port=$1 tries=${2:-100}
  while [ "$tries" -gt 0 ]; do
    python3 -c "import socket,sys; s=socket.create_connection(('127.0.0.1', $port), 0.5); s.close()" 2>/dev/null && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}

# Registers ACCOUNT:PASSWORD[:CERTFP] entries with NickServ over the plain port; fails unless every one is confirmed.
_ircd_register_accounts() {
  python3 - "$@" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
for pair in sys.argv[2:]:
    account, password, fingerprint = (pair.split(":", 2) + [""])[:3]
    deadline = time.time() + 30
    ok = False
    while not ok and time.time() < deadline:
        s = socket.create_connection(("127.0.0.1", port), 5)
        s.settimeout(10)
        f = s.makefile("rwb", buffering=0)
        def send(line): f.write((line + "\r\n").encode())
        send(f"NICK {account}"); send(f"USER {account} 0 * :{account}")
        services_up = False
        for raw in f:
            line = raw.decode(errors="replace").rstrip("\r\n")
            parts = line.split(" ")
            if parts[0] == "PING": send("PONG " + " ".join(parts[1:]))
            elif len(parts) > 1 and parts[1] == "001":
                send(f"PRIVMSG NickServ :REGISTER {password} {account}@localhost.test")
                send("PING :registered?")
            elif len(parts) > 1 and parts[1] in ("401", "440"):  # services not linked yet
                break
            elif "NickServ" in parts[0] and ("registered" in line or "already" in line):
                if not fingerprint:
                    ok = True
                    break
                # SASL EXTERNAL: the account accepts this TLS client certificate (CertFP).
                send(f"PRIVMSG NickServ :CERT ADD {fingerprint}")
            elif "NickServ" in parts[0] and fingerprint and fingerprint in line.lower():
                ok = True
                break
        try:
            send("QUIT :done"); s.close()
        except OSError:
            pass
        if not ok: time.sleep(0.5)
    if not ok:
        sys.exit(f"could not register {account} with NickServ")
PY
}

ircd_start() {
  local dir=${1:?usage: ircd_start DIR}
  mkdir -p "$dir/insp" "$dir/atheme"
  dir=$(cd "$dir" && pwd)
  local ports plain tls link
  ports=$(_ircd_free_ports 3)
  plain=$(echo "$ports" | sed -n 1p)
  tls=$(echo "$ports" | sed -n 2p)
  link=$(echo "$ports" | sed -n 3p)
  local linkpass
  linkpass=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')

  # A CA for this run only, and a server certificate for 127.0.0.1 signed by it.
  (
    cd "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=AwfulBot test CA" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
      -extfile server.ext 2>/dev/null
    # The bot's client certificate for SASL EXTERNAL (self-signed: only its fingerprint matters).
    openssl req -x509 -newkey rsa:2048 -nodes -keyout client.key -out client.pem -days 2 -subj "/CN=awfulbot" \
      2>/dev/null
  ) || { echo "ircd_start: certificate generation failed" >&2; return 1; }

  cat >"$dir/insp/inspircd.conf" <<CONF
<config format="xml">
<server name="irc.test.local" description="AwfulBot test network" network="AwfulTest" id="001">
<admin name="awfulbot tests" nick="admin" email="admin@localhost">
<bind address="127.0.0.1" port="$plain" type="clients">
<bind address="127.0.0.1" port="$tls" type="clients" sslprofile="Clients">
<bind address="127.0.0.1" port="$link" type="servers">
# Test-friendly: no fake lag or flood limits (the bot's own flood control is what the tests measure), no DNS/ident.
<connect name="main" allow="*" timeout="60" pingfreq="120" hardsendq="1M" softsendq="1M" recvq="64K"
         threshold="100000" commandrate="1000000" fakelag="no" localmax="1000" globalmax="1000"
         useident="no" resolvehostnames="no" limit="5000">
<pid file="$dir/insp/inspircd.pid">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="$dir/insp/inspircd.log">
<files motd="/etc/inspircd/inspircd.motd">
<module name="cap">
<module name="ssl_gnutls">
<sslprofile name="Clients" provider="gnutls" certfile="$dir/server.pem" keyfile="$dir/server.key" requestclientcert="yes"
            hash="sha256">
<module name="spanningtree">
<module name="services_account">
<module name="sasl">
<sasl target="services.test.local" requiressl="no">
<module name="sslinfo">
<module name="ircv3">
<module name="ircv3_accounttag">
<module name="ircv3_servertime">
<module name="ircv3_ctctags">
<module name="ircv3_msgid">
<module name="ircv3_echomessage">
<module name="ircv3_capnotify">
<module name="monitor">
<module name="namesx">
# Channel statuses beyond op and voice, as on most networks (PREFIX=(qaohv)~&@%+), for the role tests; here an op
# may give +a and +h.
<module name="customprefix">
<customprefix name="founder" letter="q" prefix="~" rank="50000" ranktoset="50000">
<customprefix name="admin" letter="a" prefix="&amp;" rank="40000" ranktoset="30000">
<customprefix name="halfop" letter="h" prefix="%" rank="20000" ranktoset="30000">
<link name="services.test.local" ipaddr="127.0.0.1" port="$link" allowmask="127.0.0.1/32"
      sendpass="$linkpass" recvpass="$linkpass">
<uline server="services.test.local" silent="yes">
<performance nouserdns="yes">
CONF

  cat >"$dir/atheme/atheme.conf" <<CONF
loadmodule "modules/protocol/inspircd";
loadmodule "modules/backend/opensex";
loadmodule "modules/crypto/pbkdf2v2";
loadmodule "modules/nickserv/main";
loadmodule "modules/nickserv/register";
loadmodule "modules/nickserv/identify";
loadmodule "modules/saslserv/main";
loadmodule "modules/saslserv/plain";
loadmodule "modules/saslserv/external";
loadmodule "modules/nickserv/cert";
serverinfo {
    name = "services.test.local"; desc = "AwfulBot test services"; numeric = "00A"; recontime = 1;
    netname = "AwfulTest"; hidehostsuffix = "users.test"; adminname = "admin"; adminemail = "admin@localhost";
    registeremail = "noreply@localhost"; auth = none; mta = "/bin/true";
    loglevel = { admin; error; info; network; };
    maxlogins = 10; maxusers = 10; mdlimit = 30; emaillimit = 10; emailtime = 300;
};
uplink "irc.test.local" { host = "127.0.0.1"; port = $link; send_password = "$linkpass"; receive_password = "$linkpass"; };
nickserv { nick = "NickServ"; user = "NickServ"; host = "services.test.local"; real = "Nickname Services"; maxnicks = 5; };
saslserv { nick = "SaslServ"; user = "SaslServ"; host = "services.test.local"; real = "SASL Authentication Agent"; };
general {
    helpchan = "#help"; helpurl = "http://localhost/"; permissive_mode; join_chans; uflags = { hold; };
    cflags = { verbose; }; flood_msgs = 1000; flood_time = 1; ratelimit_uses = 1000; ratelimit_period = 1;
    vhost_change = 0; kline_time = 7; commit_interval = 1; expire = 0;
};
logfile "$dir/atheme/atheme.log" { error; info; admin; network; };
CONF

  # Restarts InspIRCd on the same ports (the tests' "server restarted mid-run"); Atheme relinks by itself.
  cat >"$dir/restart-ircd.sh" <<SCRIPT
#!/usr/bin/env bash
set -u
pid=\$(cat "$dir/insp/inspircd.pid" 2>/dev/null || true)
if [ -n "\$pid" ]; then
  kill -TERM "\$pid" 2>/dev/null
  for _ in \$(seq 50); do kill -0 "\$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "\$pid" 2>/dev/null || true
fi
sleep "\${1:-0}"
# InspIRCd 3 may crash while unloading modules on SIGTERM: no core files, and started from its own directory.
(cd "$dir/insp" && ulimit -c 0 && exec setsid /usr/sbin/inspircd --config "$dir/insp/inspircd.conf" --nofork \
  --runasroot >>"$dir/insp/stdout.log" 2>&1 </dev/null) &
echo \$! >"$dir/insp/inspircd.pid"
python3 - <<'PY'
import socket, time
deadline = time.time() + 10
while time.time() < deadline:
    try:
        socket.create_connection(("127.0.0.1", $plain), 0.5).close(); break
    except OSError:
        time.sleep(0.1)
PY
SCRIPT
  chmod +x "$dir/restart-ircd.sh"

  # Own session and directory, no core files: InspIRCd 3 may crash while unloading modules on SIGTERM.
  (cd "$dir/insp" && ulimit -c 0 && exec setsid /usr/sbin/inspircd --config "$dir/insp/inspircd.conf" --nofork \
    --runasroot >"$dir/insp/stdout.log" 2>&1 </dev/null) &
  echo $! >"$dir/insp/inspircd.pid"
  disown $! 2>/dev/null || true
  if ! _ircd_wait_port "$plain" 100; then
    echo "ircd_start: InspIRCd did not start; see $dir/insp/" >&2
    cat "$dir/insp/stdout.log" >&2
    return 1
  fi
  (cd "$dir/atheme" && ulimit -c 0 && exec setsid /usr/bin/atheme-services -n -c "$dir/atheme/atheme.conf" \
    -D "$dir/atheme" -p "$dir/atheme/atheme.pid" -l "$dir/atheme/atheme.log" >"$dir/atheme/stdout.log" 2>&1 </dev/null) &
  echo $! >"$dir/atheme/atheme.launcher.pid"
  disown $! 2>/dev/null || true

  export AWFULBOT_IRC_DIR="$dir"
  export AWFULBOT_IRC_HOST=127.0.0.1
  export AWFULBOT_IRC_PORT=$plain
  export AWFULBOT_IRC_TLS_PORT=$tls
  export AWFULBOT_IRC_CA_FILE="$dir/ca.pem"
  export AWFULBOT_IRC_ACCOUNT=awfulbot
  export AWFULBOT_IRC_PASSWORD="bot-$(head -c 9 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  export AWFULBOT_IRC_TESTER_ACCOUNT=tester
  export AWFULBOT_IRC_TESTER_PASSWORD="tester-$(head -c 9 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  export AWFULBOT_IRC_RESTART="$dir/restart-ircd.sh"
  export AWFULBOT_IRC_CONTROL_DIR="$dir/control"
  mkdir -p "$dir/control"
  (
    while [ -d "$dir/control" ]; do
      for request in "$dir"/control/*.restart; do
        [ -e "$request" ] || continue
        "$dir/restart-ircd.sh" "$(cat "$request")" >/dev/null 2>&1
        mv "$request" "${request%.restart}.done"
      done
      sleep 0.1
    done
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/control.pid"
  disown $! 2>/dev/null || true

  export AWFULBOT_IRC_CLIENT_CERT="$dir/client.pem"
  export AWFULBOT_IRC_CLIENT_KEY="$dir/client.key"
  local fingerprint
  fingerprint=$(openssl x509 -in "$dir/client.pem" -noout -fingerprint -sha256 | cut -d= -f2 | tr -d : | tr 'A-F' 'a-f')
  if ! _ircd_register_accounts "$plain" "$AWFULBOT_IRC_ACCOUNT:$AWFULBOT_IRC_PASSWORD:$fingerprint" \
    "$AWFULBOT_IRC_TESTER_ACCOUNT:$AWFULBOT_IRC_TESTER_PASSWORD"; then
    echo "ircd_start: NickServ registration failed; see $dir/atheme/atheme.log" >&2
    ircd_stop
    return 1
  fi
  echo "==> IRC test network on 127.0.0.1: plain $plain, TLS $tls (logs in $dir)"
}

# Stops a process by the PID in a file: TERM, then KILL if it is still there after 3 s.
_ircd_stop_pidfile() {
  local file=$1 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file" 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

ircd_stop() {
  local dir=${AWFULBOT_IRC_DIR:-}
  [ -n "$dir" ] || return 0
  _ircd_stop_pidfile "$dir/control.pid"
  _ircd_stop_pidfile "$dir/atheme/atheme.pid"
  _ircd_stop_pidfile "$dir/atheme/atheme.launcher.pid"
  _ircd_stop_pidfile "$dir/insp/inspircd.pid"
}
