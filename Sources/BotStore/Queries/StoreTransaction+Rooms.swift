import Foundation
import GRDB

extension StoreTransaction {
  package func room(transport: String, room: String) throws -> RoomRecord? {
    try RoomRecord.fetchOne(db, key: ["transport": transport, "room": room])
  }

  /// The room's row, created with default settings when the room is new (`replayCap` is the configured default
  /// for new rooms; the column default applies only to rows written without one).
  package func ensureRoom(transport: String, room: String, now: Date, replayCap: Int = 20) throws -> RoomRecord {
    if let existing = try self.room(transport: transport, room: room) { return existing }
    let created = RoomRecord(transport: transport, room: room, replayCap: replayCap, createdAt: now)
    try created.insert(db)
    return created
  }

  package func save(_ room: RoomRecord) throws {
    try room.save(db)
  }

  package func allRooms() throws -> [RoomRecord] {
    try RoomRecord.order(Column("transport"), Column("room")).fetchAll(db)
  }
}
