import BotStore
import ChatBridge
import Foundation

/// Each room's alert registrations: forum usernames whose quotes and mentions the room is told about.
package struct AlertBook: Sendable, EnginePart {
  let context: EngineContext

  /// Registers a forum username for quote and mention alerts in the room. Returns false when already registered.
  @discardableResult
  package func addAlert(room: RoomRef, username: String, createdBy: String? = nil) async throws -> Bool {
    _ = try room.capabilities(in: transports)
    let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw EngineError.invalidArgument("Give a forum username.") }
    let now = now()
    let cap = configuration.replayCap
    return try await database.write { tx in
      _ = try tx.ensureRoom(transport: room.transport, room: room.room, now: now, replayCap: cap)
      return try tx.insertAlert(
        AlertRecord(transport: room.transport, room: room.room, username: name, createdAt: now, createdBy: createdBy))
    }
  }

  /// Removes an alert registration. Returns false when there was none.
  @discardableResult
  package func removeAlert(room: RoomRef, username: String) async throws -> Bool {
    let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await database.write { tx in
      try tx.deleteAlert(transport: room.transport, room: room.room, username: name)
    }
  }

  /// Usernames the room gets alerts for, alphabetically.
  package func alerts(room: RoomRef) async throws -> [String] {
    try await database.read { tx in
      try tx.alerts(transport: room.transport, room: room.room).map(\.username)
    }
  }
}
