import BotStore
import Foundation

/// The reply map: which message of the bot an answer in chat points at, read from the outbox rows (each keeps its
/// post, the chat service's receipt and its short reference). Only rows of the last `window` count, so an answer to
/// something weeks old is not taken as a reply to a forum post.
package struct RelayMap: Sendable, EnginePart {
  static let window: TimeInterval = 30 * 24 * 3600

  let context: EngineContext

  /// Notes that the bot posted `postID` from `room`, so that `Relay` does not send the post back to that room.
  package func notePostedFromChat(room: RoomRef, postID: String) async throws {
    let now = now()
    try await database.write { tx in
      try tx.notePostedFromChat(transport: room.transport, room: room.room, postID: postID, at: now)
    }
  }

  /// The bot's message the chat service calls `messageID` in the room.
  package func message(room: RoomRef, messageID: String) async throws -> RelayedMessage? {
    let since = now().addingTimeInterval(-Self.window)
    let row = try await database.read { tx in
      try tx.outboxRow(transport: room.transport, room: room.room, receipt: messageID, since: since)
    }
    return row.map(Self.relayed)
  }

  /// The relay carrying `reference` (`r7`) in the room.
  package func message(room: RoomRef, reference: String) async throws -> RelayedMessage? {
    let since = now().addingTimeInterval(-Self.window)
    let row = try await database.read { tx in
      try tx.outboxRow(transport: room.transport, room: room.room, reference: reference.lowercased(), since: since)
    }
    return row.map(Self.relayed)
  }

  /// The room's last relay that carries a reference (what `nick: ^ text` answers).
  package func lastReferenced(room: RoomRef) async throws -> RelayedMessage? {
    let since = now().addingTimeInterval(-Self.window)
    let row = try await database.read { tx in
      try tx.lastReferencedRow(transport: room.transport, room: room.room, since: since)
    }
    return row.map(Self.relayed)
  }

  /// The chat service's id of the first answer to the command message `messageID` (a preview), once sent.
  package func answerReceipt(room: RoomRef, answering messageID: String) async throws -> String? {
    let key = OutboxKey.answer(room, id: messageID, answer: 1)
    return try await database.read { tx in try tx.outboxRow(idempotencyKey: key)?.receipt }
  }

  private static func relayed(_ row: OutboxRecord) -> RelayedMessage {
    RelayedMessage(
      kind: row.kind, threadID: row.threadID, postID: row.postID, receipt: row.receipt, reference: row.reference,
      answeredMessageID: row.kind == .answer ? OutboxKey.answeredMessageID(in: row.idempotencyKey) : nil)
  }
}
