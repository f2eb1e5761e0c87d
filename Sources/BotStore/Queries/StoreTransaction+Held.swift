import Foundation
import GRDB

extension StoreTransaction {
  /// Holds an item; returns false when the same item (room, kind, post id) is already held.
  @discardableResult
  package func hold(_ record: HeldItemRecord) throws -> Bool {
    var copy = record
    copy.id = nil
    try copy.insert(db, onConflict: .ignore)
    return db.changesCount > 0
  }

  package func heldItems(transport: String, room: String) throws -> [HeldItemRecord] {
    try HeldItemRecord.filter(Column("transport") == transport && Column("room") == room).order(Column("id"))
      .fetchAll(db)
  }

  package func heldCount(transport: String, room: String) throws -> Int {
    try HeldItemRecord.filter(Column("transport") == transport && Column("room") == room).fetchCount(db)
  }

  package func totalHeldCount() throws -> Int {
    try HeldItemRecord.fetchCount(db)
  }

  /// Rooms with something held, as (transport, room).
  package func roomsWithHeldItems() throws -> [(transport: String, room: String)] {
    try Row.fetchAll(db, sql: "SELECT DISTINCT transport, room FROM heldItem ORDER BY transport, room")
      .map { (transport: $0["transport"], room: $0["room"]) }
  }

  package func deleteHeld(ids: [Int64]) throws {
    _ = try HeldItemRecord.deleteAll(db, keys: ids)
  }

  package func heldItems(postID: String, transport: String, room: String) throws -> [HeldItemRecord] {
    try HeldItemRecord
      .filter(Column("postID") == postID && Column("transport") == transport && Column("room") == room)
      .fetchAll(db)
  }
}
