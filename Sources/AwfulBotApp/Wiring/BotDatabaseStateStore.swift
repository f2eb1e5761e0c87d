import BotStore
import ChatBridge
import Foundation

/// A transport's restart-surviving state (Matrix: access token, device id, sync position, thread roots) in the bot's
/// `transportState` table under the transport's name, so it lives and is backed up with the rest of the bot's
/// database.
package struct BotDatabaseStateStore: TransportStateStore {
  package let database: BotDatabase
  /// The transport's configured name.
  package let transport: String

  package init(database: BotDatabase, transport: String) {
    self.database = database
    self.transport = transport
  }

  package func value(for key: String) async throws -> String? {
    let transport = transport
    return try await database.read { tx in try tx.transportState(transport: transport, key: key) }
  }

  package func setValue(_ value: String?, for key: String) async throws {
    let transport = transport
    try await database.write { tx in try tx.setTransportState(value, transport: transport, key: key, now: Date()) }
  }

  package func removeValues(withPrefix prefix: String) async throws {
    let transport = transport
    try await database.write { tx in _ = try tx.removeTransportState(transport: transport, keyPrefix: prefix) }
  }

  package func setValues(_ values: [String: String?]) async throws {
    let transport = transport
    try await database.write { tx in
      let now = Date()
      for (key, value) in values { try tx.setTransportState(value, transport: transport, key: key, now: now) }
    }
  }
}
