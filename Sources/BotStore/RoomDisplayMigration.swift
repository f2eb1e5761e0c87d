import GRDB

/// `v10-roomDisplay` (issue 45): two room settings that lived in the transports' configuration, now kept with the
/// room's other settings: whether a room whose transport cannot edit is told when a relayed post is edited
/// (`editNotices`, once IRC's list of channels) and how it shows pictures (`pictures`: `inline` or `links`, once
/// Matrix's `images.rooms`). NULL is the default (off; inline), as for `replyRole`.
enum RoomDisplayMigration {
  static func migrate(_ db: Database) throws {
    try db.alter(table: "room") { t in
      t.add(column: "editNotices", .boolean)
      t.add(column: "pictures", .text)
    }
  }
}
