import Foundation
import GRDB

/// A database file looked at before it is trusted as the bot's (`awfulbot restore`): whether it is one at all, whole,
/// and which migrations made it. Nothing here migrates: a restore must not change the schema of a backup from a
/// newer version, and an older one is migrated by the next `run` like any other database.
package enum DatabaseFile {
  /// What a file turned out to be.
  package struct Inspection: Sendable, Hashable {
    /// Every migration recorded in the file, those this build does not know included.
    package var appliedMigrations: Set<String>
  }

  /// The migrations this build knows, oldest first.
  package static var knownMigrations: [String] { BotMigrations.migrator.migrations }

  /// Tables every version of the schema has had since the first migration (the key-value table of the first ones went
  /// in v7): a file without them is not the bot's.
  static let coreTables = ["grdb_migrations", "outbox", "thread", "room"]

  /// Opens `path` read-only and checks it: an SQLite file (`PRAGMA quick_check` passes) with the bot's tables and
  /// first migration. Throws `DatabaseFileError` saying which of these failed.
  package static func inspect(path: String) throws -> Inspection {
    guard FileManager.default.fileExists(atPath: path) else { throw BotStoreError.noDatabase(path: path) }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(BotDatabase.busyTimeout)
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw DatabaseFileError.notSQLite(path: path, detail: "\(error)")
    }
    defer { try? queue.close() }
    return try queue.read { db in
      let check: [String]
      do {
        check = try String.fetchAll(db, sql: "PRAGMA quick_check")
      } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
        throw DatabaseFileError.notSQLite(path: path, detail: error.message ?? "\(error)")
      } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
        throw DatabaseFileError.damaged(path: path, detail: error.message ?? "\(error)")
      }
      guard check == ["ok"] else {
        throw DatabaseFileError.damaged(path: path, detail: check.prefix(3).joined(separator: "; "))
      }
      for table in coreTables where try !db.tableExists(table) {
        throw DatabaseFileError.notAwfulBot(path: path, missing: table)
      }
      let applied = try BotMigrations.migrator.appliedIdentifiers(db)
      guard let first = knownMigrations.first, applied.contains(first) else {
        throw DatabaseFileError.notAwfulBot(path: path, missing: "migration \(knownMigrations.first ?? "v1")")
      }
      return Inspection(appliedMigrations: applied)
    }
  }

  /// Changes a database file in one transaction without migrating it (the restored copy, before it is put in
  /// place). `body` may only touch what the first migration made, since the file may be of any older schema.
  package static func amend(path: String, _ body: (StoreTransaction) throws -> Void) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(BotDatabase.busyTimeout)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    try queue.write { db in try body(StoreTransaction(db: db)) }
  }
}
