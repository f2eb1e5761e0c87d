import Foundation
import GRDB

/// The running daemon as its last heartbeat wrote it, for `awfulbot status` and `restore`, which run in other
/// processes and see only the database. The table holds at most this one row.
package struct DaemonHeartbeatRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "daemonHeartbeat"

  /// Always 1: one daemon runs on a database (the run lock sees to it).
  package var id: Int = 1
  package var pid: Int32
  package var version: String
  package var startedAt: Date
  package var lastSeen: Date
  /// Set on a graceful shutdown.
  package var stoppedAt: Date?
  /// Seconds between heartbeats, so a reader can tell a live daemon from a crashed one.
  package var heartbeatSeconds: Double
  /// The config file the daemon runs with, as JSON: its type (AwfulBotApp's `ConfigurationStamp`) is the app's, not
  /// the store's. Absent when the daemon runs without one, as `demo` does.
  package var configuration: String?

  package init(
    pid: Int32, version: String, startedAt: Date, lastSeen: Date, stoppedAt: Date?, heartbeatSeconds: Double,
    configuration: String?
  ) {
    self.pid = pid
    self.version = version
    self.startedAt = startedAt
    self.lastSeen = lastSeen
    self.stoppedAt = stoppedAt
    self.heartbeatSeconds = heartbeatSeconds
    self.configuration = configuration
  }
}
