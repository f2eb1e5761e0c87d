import BotStore
import ChatBridge
import Foundation

/// A transport's restart-surviving state (Matrix: access token, device id, sync position, thread roots) in the bot's
/// key-value table, one namespace per transport (`transport:<name>`), so it lives and is backed up with the rest of
/// the bot's database.
package struct BotDatabaseStateStore: TransportStateStore {
  package let database: BotDatabase
  package let namespace: String

  package init(database: BotDatabase, transport: String) {
    self.database = database
    self.namespace = Self.namespace(transport: transport)
  }

  /// The key-value namespace of a transport's state.
  package static func namespace(transport: String) -> String { "transport:\(transport)" }

  package func value(for key: String) async throws -> String? {
    let namespace = namespace
    return try await database.read { tx in try tx.value(namespace: namespace, key: key) }
  }

  package func setValue(_ value: String?, for key: String) async throws {
    let namespace = namespace
    try await database.write { tx in
      if let value {
        try tx.setValue(value, namespace: namespace, key: key, now: Date())
      } else {
        try tx.removeValue(namespace: namespace, key: key)
      }
    }
  }

  package func setValues(_ values: [String: String?]) async throws {
    let namespace = namespace
    try await database.write { tx in
      let now = Date()
      for (key, value) in values {
        if let value {
          try tx.setValue(value, namespace: namespace, key: key, now: now)
        } else {
          try tx.removeValue(namespace: namespace, key: key)
        }
      }
    }
  }
}
