/// A transport that can say whether it is connected, for `/readyz`, `status` and the reconnect count.
/// Transports that do not conform are taken as connected while they run.
package protocol ConnectionStateReporting: Sendable {
  /// nil when connected and usable; otherwise why not (`connecting`, `reconnecting (timeout)`).
  func connectionProblem() async -> String?
  /// How many times the transport has connected since it started, when it counts them itself; nil: the monitor
  /// counts reconnects from what it sees between heartbeats (which misses a reconnect quicker than one beat).
  func connectionCount() async -> Int?
  /// Rooms where the transport cannot read commands (Matrix rooms with end-to-end encryption), for `status`.
  func unreadableRooms() async -> [String]
}

extension ConnectionStateReporting {
  package func connectionCount() async -> Int? { nil }
  package func unreadableRooms() async -> [String] { [] }
}
