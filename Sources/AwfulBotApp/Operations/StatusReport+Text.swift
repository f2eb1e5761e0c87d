import BotCore
import ChatBridge
import Foundation

extension StatusReport {
  /// The report as lines for a terminal, with times relative to `now`.
  package func text(now: Date = Date()) -> String {
    func ago(_ date: Date?) -> String { date.map { RelativeTime.describe($0, now: now) } ?? "never" }
    var lines: [String] = []
    lines.append("database: \(databasePath)")
    if let storage { lines.append(storageLine(storage, ago: ago)) }
    if let daemon {
      let mark = daemon.state == .running ? "✓" : daemon.state == .aliveOnFullDisk ? "!" : "✗"
      lines.append(
        "daemon: \(mark) \(daemon.state) (pid \(daemon.pid), version \(daemon.version), started \(ago(daemon.startedAt)), "
          + "last seen \(ago(daemon.lastSeen)))")
      if daemon.state == .aliveOnFullDisk {
        lines.append("  its process runs, but its heartbeat cannot be saved until space is freed")
      }
      lines += configurationLines(daemon, ago: ago)
    } else {
      lines.append("daemon: - no heartbeat recorded (the bot has not run with this database yet)")
    }
    var login = forum.hasSession ? "✓ session stored" : "✗ no session"
    if let expires = forum.sessionExpires { login += " (expires \(ago(expires)))" }
    if let loggedIn = forum.loggedInAtLastHeartbeat {
      login += loggedIn ? "; logged in at last heartbeat" : "; NOT logged in at last heartbeat"
    }
    lines.append("forum login: \(login)")
    if let wall = forum.wall, daemon?.isRunning ?? false {
      lines.append("forum: ✗ walled since \(ago(wall.since)), last met \(ago(wall.lastSeen)): \(wall.wall.description)")
    }
    lines.append("sources:")
    if sources.isEmpty { lines.append("  (none polled yet)") }
    for source in sources {
      let mark = source.consecutiveErrors == 0 ? "✓" : "✗"
      var line =
        "  \(mark) \(source.source): last poll \(ago(source.lastAttempt)), last success \(ago(source.lastSuccess))"
      line += ", \(source.totalPolls) polls, \(source.totalErrors) errors"
      if source.consecutiveErrors > 0 {
        line += "\n      last error \(ago(source.lastErrorAt)): \(source.lastError ?? "unknown")"
        line += "\n      backing off after \(source.consecutiveErrors) error(s); next try \(ago(source.nextAttempt))"
      } else if let next = source.nextAttempt {
        line += ", next \(ago(next))"
        if let pace = source.pace { line += "\n      \(pace)" }
      }
      if let sweep = source.sweep { line += "\n      " + sweepLine(sweep, ago: ago) }
      lines.append(line)
    }
    lines.append(
      "outbox: \(pending) pending, \(delivered) delivered, \(held) held, \(failed) failed, \(deadLetters) dead letters"
        + " (\(NameList.count(rooms, "room")), \(NameList.count(subscriptions, "subscription")))")
    for room in outboxDepth { lines.append("  \(room.transport) \(room.room): \(room.pending) waiting") }
    if let parked, parked > 0 {
      let rows = (parkedRows ?? []).map {
        ParkedText.name(id: $0.id, transport: $0.transport, room: $0.room, postID: $0.postID, withRoom: true)
      }
      lines.append("parked: ✗ \(ParkedText.sentence(count: parked, rows: rows))")
    }
    if !recentDeadLetters.isEmpty {
      lines.append("undeliverable (newest first):")
      for row in recentDeadLetters {
        lines.append(
          "  ✗ \(row.state) \(row.transport) \(row.room) \(row.kind)\(row.postID.map { " post \($0)" } ?? "") "
            + "\(ago(row.at)): \(row.error ?? "no error recorded")")
      }
    }
    lines.append("transports:")
    if transports.isEmpty { lines.append("  (none seen yet)") }
    // A daemon that stopped (or stopped answering) is connected to nothing, whatever its last heartbeat said.
    let daemonDown = daemon.map { !$0.isRunning } ?? false
    for transport in transports {
      let mark = daemonDown ? "-" : transport.connected.map { $0 ? "✓" : "✗" } ?? "-"
      var line = "  \(mark) \(transport.name):"
      if daemonDown, transport.connected != nil {
        line += " not connected (the daemon is \(daemon?.state.rawValue ?? "not running"))"
      } else if let connected = transport.connected {
        line += connected ? " connected" : " not connected (\(transport.problem ?? "unknown"))"
      } else {
        line += " state unknown"
      }
      line += ", last contact \(ago(transport.lastConnected)), last delivery \(ago(transport.lastDelivery))"
      if let reconnects = transport.reconnects, reconnects > 0 { line += ", \(reconnects) reconnects" }
      lines.append(line)
      if let rooms = transport.unreadableRooms, !rooms.isEmpty {
        lines.append("    encrypted rooms, commands there cannot be read: \(rooms.joined(separator: ", "))")
      }
      if let identity = transport.encryptionIdentity {
        lines.append("    encryption: \(identity)")
      }
      if let rooms = transport.encryptedRooms, !rooms.isEmpty {
        let list = rooms.sorted { $0.key < $1.key }.map { room, shared in
          "\(room) (\(shared ? "key on every trusted device" : "key not on every trusted device yet"))"
        }
        lines.append("    end-to-end encrypted rooms: \(list.joined(separator: ", "))")
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension StatusReport {
  /// The bookmarks' full sweep in one line: "full sweep in progress, begun 3m ago: page 120 next" (or confirming
  /// the threads no page listed), or "last full sweep begun 40m ago".
  private func sweepLine(_ sweep: Sweep, ago: (Date?) -> String) -> String {
    guard let started = sweep.startedAt else { return "last full sweep begun \(ago(sweep.lastComplete))" }
    let step =
      sweep.confirming > 0
      ? "confirming \(sweep.confirming) thread(s) no page listed" : "page \(sweep.nextPage ?? 1) next"
    return "full sweep in progress, begun \(ago(started)), a page at a time between checks: \(step)"
  }

  /// The disk in one line: free space, or, when full, what that means for the posts and what brings the bot back.
  fileprivate func storageLine(_ storage: Storage, ago: (Date?) -> String) -> String {
    let free = storage.freeBytes.map { "\(ByteText.describe($0)) free" }
    guard storage.isFull else { return "disk: ✓ \(free ?? "free space unknown")" }
    let since = storage.fullSince.map { " since \(ago($0))" } ?? ""
    return "disk: ✗ full\(since)\(free.map { " (\($0))" } ?? ""): the daemon cannot save anything new; new posts "
      + "wait on the forum (none are lost) and it resumes by itself once space is freed"
  }

  /// The config the daemon runs with, and what an operator who just edited it needs to know: not applied yet, or
  /// refused.
  private func configurationLines(_ daemon: Daemon, ago: (Date?) -> String) -> [String] {
    guard let stamp = daemon.configuration else { return [] }
    var lines = ["config: \(stamp.path) (checksum \(stamp.checksum), read \(ago(stamp.loadedAt)))"]
    if let refusedAt = stamp.refusedAt {
      let problems = stamp.refusedProblems ?? []
      lines.append(
        "  ✗ reload refused \(ago(refusedAt)) (checksum \(stamp.refusedChecksum ?? "-")): \(problems.count) "
          + "problem(s); the bot runs with the config above")
      for problem in problems.prefix(5) { lines.append("    - \(problem)") }
      if problems.count > 5 { lines.append("    … and \(problems.count - 5) more (see the log)") }
    }
    if let onDisk = daemon.configurationOnDisk, onDisk != stamp.refusedChecksum, daemon.state == .running {
      lines.append(
        "  ! the file changed since (checksum \(onDisk)): `systemctl reload awfulbot` or `kill -HUP \(daemon.pid)` "
          + "applies it")
    }
    return lines
  }

}

/// "3m ago", "in 30s", "just now".
enum RelativeTime {
  static func describe(_ date: Date, now: Date) -> String {
    let seconds = Int(date.timeIntervalSince(now).rounded())
    if abs(seconds) < 2 { return "just now" }
    let magnitude = abs(seconds)
    let text: String
    switch magnitude {
    case ..<120: text = "\(magnitude)s"
    case ..<7200: text = "\(magnitude / 60)m"
    case ..<172_800: text = "\(magnitude / 3600)h"
    default: text = "\(magnitude / 86400)d"
    }
    return seconds < 0 ? "\(text) ago" : "in \(text)"
  }
}
