import BotStore
import ChatBridge
import Foundation

/// Each room's relay settings (`RoomSettings`): read them, or change any of them with one `update(room:_:)`.
package struct RoomSettingsBook: Sendable, EnginePart {
  let context: EngineContext
  /// Releases held items after a change.
  let outbox: OutboxWriter

  /// The room's settings (defaults when the room has never been configured).
  package func settings(room: RoomRef) async throws -> RoomSettings {
    let cap = configuration.replayCap
    return try await database.read { tx in
      RoomSettings(record: try tx.room(transport: room.transport, room: room.room), defaultReplayCap: cap)
    }
  }

  /// Changes the room's settings in one write and returns them before and after; the change's `undo` puts back
  /// only what it altered. Settings no room may have are refused and nothing is stored. Held items that are now due
  /// (the room left digest mode, its quiet spell ended, it was resumed) are released at once.
  @discardableResult
  package func update(room: RoomRef, _ change: @escaping @Sendable (inout RoomSettings) throws -> Void)
    async throws -> RoomSettingsChange
  {
    _ = try room.capabilities(in: transports)
    let now = now()
    let cap = configuration.replayCap
    let result = try await database.write { tx in
      var record = try tx.ensureRoom(transport: room.transport, room: room.room, now: now, replayCap: cap)
      let before = RoomSettings(record: record, defaultReplayCap: cap)
      var after = before
      try change(&after)
      try after.validate()
      after.apply(to: &record)
      try tx.save(record)
      return try RoomSettingsChange(before: before, after: after)
    }
    try await outbox.releaseHeld()
    return result
  }
}
