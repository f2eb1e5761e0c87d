import BotStore
import Foundation
import MatrixTransport

/// The transport's state in the bot's key-value table, one namespace per transport: what the app does too.
struct BotDatabaseStateStore: TransportStateStore {
  let database: BotDatabase
  let namespace: String

  init(database: BotDatabase, transport: String) {
    self.database = database
    self.namespace = "transport:\(transport)"
  }

  func value(for key: String) async throws -> String? {
    let namespace = namespace
    return try await database.read { tx in try tx.value(namespace: namespace, key: key) }
  }

  func setValue(_ value: String?, for key: String) async throws {
    let namespace = namespace
    try await database.write { tx in
      if let value {
        try tx.setValue(value, namespace: namespace, key: key, now: Date())
      } else {
        try tx.removeValue(namespace: namespace, key: key)
      }
    }
  }
}
