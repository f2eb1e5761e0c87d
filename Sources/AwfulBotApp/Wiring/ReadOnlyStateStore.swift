import BotStore
import ChatBridge
import Foundation

/// A transport's saved state read from the database without changing it, for `check` (which must neither migrate
/// nor lock the database of a bot that may be running). Writing throws.
struct ReadOnlyStateStore: TransportStateStore {
  struct WriteRefused: Error, CustomStringConvertible {
    var description: String { "check reads the database and never writes it" }
  }

  let database: ReadOnlyDatabase
  let transport: String

  init(database: ReadOnlyDatabase, transport: String) {
    self.database = database
    self.transport = transport
  }

  func value(for key: String) async throws -> String? {
    try database.read { tx in try tx.transportState(transport: transport, key: key) }
  }

  func setValue(_ value: String?, for key: String) async throws { throw WriteRefused() }
}
