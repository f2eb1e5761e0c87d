import Foundation
import GRDB

/// The last undoable change per user and room.
extension StoreTransaction {
  package func insertUndo(_ record: UndoRecord) throws -> UndoRecord {
    var copy = record
    copy.id = nil
    try copy.insert(db)
    return copy
  }

  /// The user's latest undo entry in the room created at or after `since`.
  package func latestUndo(transport: String, room: String, userID: String, since: Date) throws -> UndoRecord? {
    try UndoRecord
      .filter(Column("transport") == transport && Column("room") == room && Column("userID") == userID)
      .filter(Column("createdAt") >= since)
      .order(Column("id").desc)
      .fetchOne(db)
  }

  package func deleteUndo(id: Int64) throws {
    _ = try UndoRecord.deleteOne(db, key: id)
  }

  package func pruneUndo(before date: Date) throws {
    _ = try UndoRecord.filter(Column("createdAt") < date).deleteAll(db)
  }
}
