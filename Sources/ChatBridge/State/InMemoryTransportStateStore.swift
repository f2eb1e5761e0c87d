import Synchronization

/// Keeps state in memory only: a restart starts over (a first sync that skips history, a new login).
package final class InMemoryTransportStateStore: TransportStateStore {
  private let values = Mutex<[String: String]>([:])

  package init(_ initial: [String: String] = [:]) {
    values.withLock { $0 = initial }
  }

  package func value(for key: String) async throws -> String? {
    values.withLock { $0[key] }
  }

  package func setValue(_ value: String?, for key: String) async throws {
    values.withLock { $0[key] = value }
  }

  package func removeValues(withPrefix prefix: String) async throws {
    values.withLock { values in values = values.filter { !$0.key.hasPrefix(prefix) } }
  }

  package var snapshot: [String: String] { values.withLock { $0 } }
}
