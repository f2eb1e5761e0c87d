import Foundation
import GRDB

extension StoreTransaction {
  // MARK: Posted from chat

  package func notePostedFromChat(transport: String, room: String, postID: String, at date: Date) throws {
    try PostedFromChatRecord(transport: transport, room: room, postID: postID, postedAt: date).save(db)
  }

  package func wasPostedFromChat(transport: String, room: String, postID: String) throws -> Bool {
    try PostedFromChatRecord.exists(db, key: ["transport": transport, "room": room, "postID": postID])
  }

  package func allPostedFromChat() throws -> [PostedFromChatRecord] {
    try PostedFromChatRecord.fetchAll(db)
  }

  /// A restore: the posts the replaced database knew the bot made from chat, added where the restored one does not
  /// know them. Returns how many were added.
  package func carryOver(postedFromChat records: [PostedFromChatRecord]) throws -> Int {
    var added = 0
    for record in records
    where !(try wasPostedFromChat(transport: record.transport, room: record.room, postID: record.postID)) {
      try record.insert(db)
      added += 1
    }
    return added
  }

  // MARK: Seeded sources

  /// How the source's first contents were recorded, or nil when they were not yet.
  package func seedScheme(source: String) throws -> String? {
    try SeededSourceRecord.fetchOne(db, key: source)?.scheme
  }

  package func markSeeded(source: String, scheme: String, at date: Date) throws {
    try SeededSourceRecord(source: source, scheme: scheme, seededAt: date).save(db)
  }

  package func allSeededSources() throws -> [SeededSourceRecord] {
    try SeededSourceRecord.order(Column("source")).fetchAll(db)
  }

  // MARK: Rooms paused by the configuration

  package func markPausedByConfig(transport: String, room: String, at date: Date) throws {
    try ConfigPausedRoomRecord(transport: transport, room: room, pausedAt: date).save(db)
  }

  /// Forgets that the configuration paused the room; true when it had.
  package func clearPausedByConfig(transport: String, room: String) throws -> Bool {
    try ConfigPausedRoomRecord.deleteOne(db, key: ["transport": transport, "room": room])
  }
}
