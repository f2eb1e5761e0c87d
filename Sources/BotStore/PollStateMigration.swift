import Foundation
import GRDB

/// `v5-pollState`: the poller's own values get tables of their own (issues 35 and 36). Each source's pace and each
/// list's mark were JSON in the key-value table (namespace `poll`); they move to `pollPace` and `listMark`, so a bot
/// upgraded mid-run keeps its place: without its marks, the next poll would read the whole bookmarks list at once.
/// The bookmarks' full sweep, now read a page at a time, keeps its progress in `bookmarksSweep`, and each thread
/// when a bookmarks page last listed it (`thread.listedAt`): a sweep that takes minutes tells "not in the list" by
/// "not listed since the sweep began".
enum PollStateMigration {
  static func migrate(_ db: Database) throws {
    try db.alter(table: "thread") { t in
      t.add(column: "listedAt", .datetime)
    }
    try db.create(table: "pollPace") { t in
      t.primaryKey("source", .text)
      t.column("seconds", .double).notNull()
      t.column("reason", .text).notNull()
      t.column("quietReads", .integer).notNull().defaults(to: 0)
      t.column("ceilingSeconds", .double).notNull()
      t.column("quietSeconds", .double)
      t.column("updatedAt", .datetime).notNull()
    }
    try db.create(table: "listMark") { t in
      t.primaryKey("list", .text)
      t.column("newestLastPost", .datetime)
      t.column("lastFullSweep", .datetime)
      t.column("isOrdered", .boolean).notNull().defaults(to: true)
      t.column("updatedAt", .datetime).notNull()
    }
    try db.create(table: "bookmarksSweep") { t in
      t.primaryKey("id", .integer).check { $0 == 1 }
      t.column("startedAt", .datetime).notNull()
      t.column("nextPage", .integer).notNull()
      t.column("unlisted", .text).notNull()
      t.column("updatedAt", .datetime).notNull()
    }
    try moveKeyValues(db)
  }

  /// The JSON the key-value rows held (Foundation's default encoding: dates as seconds since 2001).
  private struct StoredPace: Decodable {
    var seconds: Double
    var reason: String
    var quietReads: Int?
    var ceilingSeconds: Double
    var quietSeconds: Double?
  }

  private struct StoredMark: Decodable {
    var newestLastPost: Date?
    var lastFullSweep: Date?
    var isOrdered: Bool?
  }

  /// Moves `pace:<source>` and `list:<list>` of namespace `poll` into their tables; a value that does not decode is
  /// dropped (the poller starts that source afresh, as it did when it could not read one).
  private static func moveKeyValues(_ db: Database) throws {
    let rows = try Row.fetchAll(db, sql: "SELECT key, value, updatedAt FROM keyValue WHERE namespace = 'poll'")
    let decoder = JSONDecoder()
    for row in rows {
      let key: String = row["key"]
      let value: String = row["value"]
      let updatedAt: Date = row["updatedAt"]
      if key.hasPrefix("pace:"), let pace = try? decoder.decode(StoredPace.self, from: Data(value.utf8)) {
        try PollPaceRecord(
          source: String(key.dropFirst("pace:".count)), seconds: pace.seconds, reason: pace.reason,
          quietReads: pace.quietReads ?? 0, ceilingSeconds: pace.ceilingSeconds, quietSeconds: pace.quietSeconds,
          updatedAt: updatedAt
        ).insert(db)
      } else if key.hasPrefix("list:"), let mark = try? decoder.decode(StoredMark.self, from: Data(value.utf8)) {
        try ListMarkRecord(
          list: String(key.dropFirst("list:".count)), newestLastPost: mark.newestLastPost,
          lastFullSweep: mark.lastFullSweep, isOrdered: mark.isOrdered ?? true, updatedAt: updatedAt
        ).insert(db)
      }
    }
    try db.execute(sql: "DELETE FROM keyValue WHERE namespace = 'poll'")
  }
}
