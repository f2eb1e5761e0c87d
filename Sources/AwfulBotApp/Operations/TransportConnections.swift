import ChatBridge
import Synchronization

/// The connection state each transport last told on its event stream (`ChatEvent.connection`), and how many times
/// it connected: the one place `status`, `/readyz` and the metrics read it from.
package final class TransportConnections: Sendable {
  package struct Entry: Sendable, Hashable {
    package var state: ConnectionState = .connecting
    /// Times the state became `.connected`: the first is the connection, the others reconnects.
    package var connections = 0

    package init(state: ConnectionState = .connecting, connections: Int = 0) {
      self.state = state
      self.connections = connections
    }
  }

  private let entries = Mutex<[String: Entry]>([:])

  package init() {}

  /// Records what `transport` told. Returns the entry after it.
  @discardableResult
  package func record(_ state: ConnectionState, transport: String) -> Entry {
    entries.withLock { entries in
      var entry = entries[transport] ?? Entry()
      if state.isConnected, !entry.state.isConnected { entry.connections += 1 }
      entry.state = state
      entries[transport] = entry
      return entry
    }
  }

  /// What `transport` told last; connecting before it has told anything.
  package func entry(_ transport: String) -> Entry {
    entries.withLock { $0[transport] ?? Entry() }
  }

  /// Passes connection events to `record` (for `ChatEventService`'s `observe`).
  package func observer(for transport: String) -> @Sendable (ChatEvent) -> Void {
    { [self] event in
      if case .connection(let state) = event { record(state, transport: transport) }
    }
  }
}
