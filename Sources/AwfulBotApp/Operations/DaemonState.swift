/// The daemon as `awfulbot status` finds it from its heartbeat, stored and shown by name.
package enum DaemonState: String, Sendable, Codable, Hashable, CustomStringConvertible {
  case running
  /// It stopped and said so.
  case stopped
  /// Its heartbeat is too old: crashed or hung.
  case notResponding = "not responding"
  /// Its heartbeat is too old because the disk is full, but its process is there: the heartbeat is the write that
  /// failed.
  case aliveOnFullDisk = "alive, disk full"

  package var description: String { rawValue }

  /// Whether its process is there.
  package var isRunning: Bool { self == .running || self == .aliveOnFullDisk }
}
