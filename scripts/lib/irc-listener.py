#!/usr/bin/env python3
"""A person sitting in an IRC channel for the whole run, writing down everything said there (scripts/crash-matrix
--irc). Python's standard library only: plain sockets on the network's plain-text port.

  irc-listener.py HOST PORT NICK CHANNEL LOG

Connects, registers as NICK, joins CHANNEL and then records, one JSON object a line in LOG (flushed each line):
  {"t": …, "kind": "ready", "nick": …}             after the server confirmed the join (end of the NAMES list)
  {"t": …, "kind": "join" | "part" | "quit", "nick": …}   someone else joining, leaving the channel or quitting
  {"t": …, "kind": "nick", "nick": old, "new": new}
  {"t": …, "kind": "line", "nick": sender, "command": "PRIVMSG" | "NOTICE", "text": …}   a line said in CHANNEL
      (mIRC formatting codes removed)
  {"t": …, "kind": "synced"}                     the answer to SIGUSR1 (below)
  {"t": …, "kind": "disconnected", "error": …}     the connection ended; the listener exits 1
It answers the server's PINGs. SIGUSR1 sends a PING of its own and records "synced" at its PONG: the server handles a
connection's lines in order and forwards what others said in the channel before it, so everything the server took
before the signal has been recorded by then. SIGTERM quits the network and exits 0.
"""
import json, re, select, signal, socket, sys, time

host, port, nick, channel, log_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
log = open(log_path, "a", buffering=1)
MIRC = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]")


def record(kind, **fields):
    log.write(json.dumps({"t": round(time.time(), 3), "kind": kind, **fields}) + "\n")


def fold(name):
    # rfc1459 case mapping, as InspIRCd's default
    return name.lower().translate(str.maketrans("[]\\~", "{}|^"))


def parse(line):
    """(prefix nick, command, parameters) of one IRC line, tags dropped."""
    if line.startswith("@"):
        line = line.split(" ", 1)[1] if " " in line else ""
    prefix = ""
    if line.startswith(":"):
        prefix, _, line = line[1:].partition(" ")
    trailing = None
    if " :" in line:
        line, trailing = line.split(" :", 1)
    elif line.startswith(":"):
        line, trailing = "", line[1:]
    parts = line.split()
    params = parts[1:] + ([trailing] if trailing is not None else [])
    return prefix.split("!", 1)[0], (parts[0].upper() if parts else ""), params


sync_wanted = False
stopping = False


def on_usr1(*_):
    global sync_wanted
    sync_wanted = True


def on_term(*_):
    global stopping
    stopping = True


signal.signal(signal.SIGUSR1, on_usr1)
signal.signal(signal.SIGTERM, on_term)

try:
    sock = socket.create_connection((host, port), 10)
except OSError as error:
    record("disconnected", error=f"connect: {error}")
    sys.exit(1)
sock.setblocking(False)
pending_out = b""


def send(text):
    global pending_out
    pending_out += (text + "\r\n").encode()


send(f"NICK {nick}")
send(f"USER {nick} 0 * :crash-matrix listener")
buffer = b""
me = nick
joined = False
sync_tokens = 0
waiting_sync = set()
deadline = time.time() + 60  # registration and join
try:
    while True:
        if stopping:
            send("QUIT :done")
            sock.setblocking(True)
            sock.settimeout(2)
            sock.sendall(pending_out)
            sock.close()
            sys.exit(0)
        if not joined and time.time() > deadline:
            record("disconnected", error="not registered and joined within 60 s")
            sys.exit(1)
        if sync_wanted and joined:
            sync_wanted = False
            sync_tokens += 1
            token = f"crash-sync-{sync_tokens}"
            waiting_sync.add(token)
            send(f"PING :{token}")
        try:
            readable, writable, _ = select.select([sock], [sock] if pending_out else [], [], 0.2)
        except InterruptedError:
            continue
        if writable:
            sent = sock.send(pending_out)
            pending_out = pending_out[sent:]
        if not readable:
            continue
        chunk = sock.recv(65536)
        if not chunk:
            record("disconnected", error="the server closed the connection")
            sys.exit(1)
        buffer += chunk
        while b"\n" in buffer:
            raw, buffer = buffer.split(b"\n", 1)
            line = raw.rstrip(b"\r").decode("utf-8", errors="replace")
            if not line:
                continue
            sender, command, params = parse(line)
            if command == "PING":
                send("PONG :" + (params[-1] if params else ""))
            elif command == "PONG":
                token = params[-1] if params else ""
                if token in waiting_sync:
                    waiting_sync.discard(token)
                    record("synced")
            elif command == "001":
                me = params[0] if params else nick
                send(f"JOIN {channel}")
            elif command in ("433", "432"):
                record("disconnected", error=f"nick {nick} refused: {line}")
                sys.exit(1)
            elif command == "366" and not joined:
                joined = True
                record("ready", nick=me)
            elif command in ("403", "405", "471", "473", "474", "475"):
                record("disconnected", error=f"could not join {channel}: {line}")
                sys.exit(1)
            elif command in ("PRIVMSG", "NOTICE") and params and fold(params[0]) == fold(channel):
                text = MIRC.sub("", params[-1]) if len(params) > 1 else ""
                record("line", nick=sender, command=command, text=text)
            elif command == "JOIN" and fold(sender) != fold(me):
                record("join", nick=sender)
            elif command == "PART" and fold(sender) != fold(me):
                record("part", nick=sender)
            elif command == "QUIT":
                record("quit", nick=sender, reason=params[-1] if params else "")
            elif command == "NICK":
                if fold(sender) == fold(me):
                    me = params[-1]
                record("nick", nick=sender, new=params[-1] if params else "")
            elif command == "KICK" and len(params) > 1 and fold(params[1]) == fold(me):
                record("disconnected", error=f"kicked: {line}")
                sys.exit(1)
            elif command == "ERROR":
                record("disconnected", error=line)
                sys.exit(1)
except OSError as error:
    record("disconnected", error=str(error))
    sys.exit(1)
