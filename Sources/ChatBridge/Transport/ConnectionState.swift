/// Where a transport's connection to its service stands. Each transport tells every change on its event stream
/// (`ChatEvent.connection`), so `status`, `/readyz` and the metrics all read the same state.
package enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
  /// Not connected yet, and nothing has failed so far.
  case connecting
  /// Connected and usable.
  case connected
  /// Not usable right now; the transport is trying again.
  case retrying(reason: String)
  /// Will not connect again: the configuration cannot work (rejected credentials) or the transport was shut down.
  case stopped(reason: String)

  package var isConnected: Bool { self == .connected }

  /// nil when connected; otherwise why not, as `status` and `/readyz` write it.
  package var problem: String? {
    switch self {
    case .connected: nil
    case .connecting: "connecting"
    case .retrying(let reason): "reconnecting (\(reason))"
    case .stopped(let reason): "stopped: \(reason)"
    }
  }

  package var description: String { problem ?? "connected" }
}
