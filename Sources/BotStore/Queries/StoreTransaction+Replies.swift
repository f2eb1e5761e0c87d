import Foundation
import GRDB

/// The reply map: which relay a chat message or a short reference stands for, so an answer to a relay finds the
/// forum post it shows. It is the outbox itself (each relay row keeps its post, its receipt and its reference), read
/// back for a bounded time (`since`): rows are never deleted, but an answer to something older is not taken as one.
extension StoreTransaction {
  /// The row the chat service acknowledged as `receipt` (a Matrix event id) in the room, queued after `since`.
  package func outboxRow(transport: String, room: String, receipt: String, since: Date) throws -> OutboxRecord? {
    try OutboxRecord
      .filter(
        Column("transport") == transport && Column("room") == room && Column("receipt") == receipt
          && Column("createdAt") >= since
      )
      .order(Column("id").desc)
      .fetchOne(db)
  }

  /// The newest row of the room carrying `reference` (`r7`), queued after `since`.
  package func outboxRow(transport: String, room: String, reference: String, since: Date) throws -> OutboxRecord? {
    try OutboxRecord
      .filter(
        Column("transport") == transport && Column("room") == room && Column("reference") == reference
          && Column("createdAt") >= since
      )
      .order(Column("id").desc)
      .fetchOne(db)
  }

  /// The room's newest delivered row that carries a reference, queued after `since` (`nick: ^ text` answers it).
  package func lastReferencedRow(transport: String, room: String, since: Date) throws -> OutboxRecord? {
    try OutboxRecord
      .filter(
        Column("transport") == transport && Column("room") == room && Column("reference") != nil
          && Column("state") == OutboxState.delivered.rawValue && Column("createdAt") >= since
      )
      .order(Column("id").desc)
      .fetchOne(db)
  }

  /// The next short reference of the room: `r` and one more than the highest so far. They only grow, so a reference
  /// never names two relays of a room.
  package func nextReference(transport: String, room: String) throws -> String {
    let highest = try Int.fetchOne(
      db,
      sql: """
        SELECT MAX(CAST(substr(reference, 2) AS INTEGER)) FROM outbox
        WHERE transport = ? AND room = ? AND reference IS NOT NULL
        """, arguments: [transport, room])
    return "r\((highest ?? 0) + 1)"
  }
}
