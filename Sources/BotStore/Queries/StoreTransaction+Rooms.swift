import Foundation
import GRDB

extension StoreTransaction {
  package func room(transport: String, room: String) throws -> RoomRecord? {
    try RoomRecord.fetchOne(db, key: ["transport": transport, "room": room])
  }

  /// The room's row, created with default settings when the room is new.
  package func ensureRoom(transport: String, room: String, now: Date) throws -> RoomRecord {
    if let existing = try self.room(transport: transport, room: room) { return existing }
    let created = RoomRecord(transport: transport, room: room, createdAt: now)
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
