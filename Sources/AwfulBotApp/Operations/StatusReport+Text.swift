import ChatBridge
import Foundation

extension StatusReport {
  /// The report as lines for a terminal, with times relative to `now`.
  package func text(now: Date = Date()) -> String {
    func ago(_ date: Date?) -> String { date.map { RelativeTime.describe($0, now: now) } ?? "never" }
    var lines: [String] = []
    lines.append("database: \(databasePath)")
    if !pendingMigrations.isEmpty {
      lines.append("  ✗ \(pendingMigrations.count) migration(s) not applied: run `awfulbot migrate` (or start the bot)")
    }
    if let daemon {
      let mark = daemon.state == "running" ? "✓" : "✗"
      lines.append(
        "daemon: \(mark) \(daemon.state) (pid \(daemon.pid), version \(daemon.version), started \(ago(daemon.startedAt)), "
          + "last seen \(ago(daemon.lastSeen)))")
    } else {
      lines.append("daemon: - no heartbeat recorded (the bot has not run with this database yet)")
    }
    var login = forum.hasSession ? "✓ session stored" : "✗ no session"
    if let expires = forum.sessionExpires { login += " (expires \(ago(expires)))" }
    if let loggedIn = forum.loggedInAtLastHeartbeat {
      login += loggedIn ? "; logged in at last heartbeat" : "; NOT logged in at last heartbeat"
    }
    lines.append("forum login: \(login)")
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
      lines.append(line)
    }
    lines.append(
      "outbox: \(pending) pending, \(delivered) delivered, \(held) held, \(failed) failed, \(deadLetters) dead letters"
        + " (\(NameList.count(rooms, "room")), \(NameList.count(subscriptions, "subscription")))")
    for room in outboxDepth { lines.append("  \(room.transport) \(room.room): \(room.pending) waiting") }
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
    for transport in transports {
      let mark = transport.connected.map { $0 ? "✓" : "✗" } ?? "-"
      var line = "  \(mark) \(transport.name):"
      if let connected = transport.connected {
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
