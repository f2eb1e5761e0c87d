import AwfulBotTestKit
import Foundation
import GRDB

@testable import BotStore

/// A database file as an older schema left it, with rows in its key-value table: what the migrations that moved
/// those rows into tables of their own (v5, v6, v7) start from.
struct OlderSchemaFile {
  let directory: URL
  let path: String

  /// Migrates a new file in a scratch folder up to `schema` and stores `rows` (namespace, key, value) as that
  /// schema did, all stamped 2025-01-02 15:05.
  init(_ name: String, upTo schema: String, rows: [(namespace: String, key: String, value: String)]) throws {
    directory = TestScratch.path(name)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    path = directory.appendingPathComponent("bot.sqlite").path
    let old = try DatabaseQueue(path: path)
    try BotMigrations.migrator.migrate(old, upTo: schema)
    try old.write { db in
      for row in rows {
        try db.execute(
          sql: "INSERT INTO keyValue (namespace, key, value, updatedAt) VALUES (?, ?, ?, '2025-01-02 15:05:00')",
          arguments: [row.namespace, row.key, row.value])
      }
    }
    try old.close()
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}
