import Foundation
import GRDB

/// `v6-chatState` (issue 36): three kinds of state kept as text in the key-value table get tables of their own —
/// the posts the bot made from chat (`postedFromChat`), the sources whose first contents were recorded without
/// alerts (`seededSource`, from namespace `engine`), and the rooms a configuration reload paused
/// (`configPausedRoom`). Rows already stored move with them, so an upgraded bot neither sends a reply back to its
/// room nor alerts a backlog, nor forgets which rooms to resume.
enum ChatStateMigration {
  static func migrate(_ db: Database) throws {
    try db.create(table: "postedFromChat") { t in
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("postID", .text).notNull()
      t.column("postedAt", .datetime).notNull()
      t.primaryKey(["transport", "room", "postID"])
    }
    try db.create(table: "seededSource") { t in
      t.primaryKey("source", .text)
      t.column("scheme", .text).notNull()
      t.column("seededAt", .datetime).notNull()
    }
    try db.create(table: "configPausedRoom") { t in
      t.column("transport", .text).notNull()
      t.column("room", .text).notNull()
      t.column("pausedAt", .datetime).notNull()
      t.primaryKey(["transport", "room"])
    }
    try moveKeyValues(db)
  }

  private static func moveKeyValues(_ db: Database) throws {
    let rows = try Row.fetchAll(
      db,
      sql: "SELECT namespace, key, value, updatedAt FROM keyValue "
        + "WHERE namespace IN ('postedFromChat', 'engine', 'pausedByConfig')")
    for row in rows {
      let namespace: String = row["namespace"]
      let key: String = row["key"]
      let value: String = row["value"]
      let updatedAt: Date = row["updatedAt"]
      switch namespace {
      case "postedFromChat":
        // "<transport>\u{1F}<room>\u{1F}<post id>"; the value is when, in ISO 8601.
        let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { continue }
        let postedAt = ISO8601DateFormatter().date(from: value) ?? updatedAt
        try PostedFromChatRecord(transport: parts[0], room: parts[1], postID: parts[2], postedAt: postedAt).save(db)
      case "engine":
        // "announcementsSeeded" held the scheme of the hashes; "privateMessagesSeeded" held "1", where the inbox's
        // row now says "ids" (BotCore's `PrivateMessagesPoll.seedScheme`: messages are known by their ids).
        switch key {
        case "announcementsSeeded":
          try SeededSourceRecord(source: "announcements", scheme: value, seededAt: updatedAt).save(db)
        case "privateMessagesSeeded":
          try SeededSourceRecord(source: "privateMessages", scheme: "ids", seededAt: updatedAt).save(db)
        default:
          continue
        }
      default:
        // "<transport> <room>": a room (an IRC channel, a Matrix room id) has no space, a transport's name may.
        guard let space = key.lastIndex(of: " ") else { continue }
        try ConfigPausedRoomRecord(
          transport: String(key[..<space]), room: String(key[key.index(after: space)...]), pausedAt: updatedAt
        ).save(db)
      }
    }
    try db.execute(sql: "DELETE FROM keyValue WHERE namespace IN ('postedFromChat', 'engine', 'pausedByConfig')")
  }
}
