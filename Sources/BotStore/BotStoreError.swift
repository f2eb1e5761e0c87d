import Foundation

/// Errors of the store itself (SQLite errors pass through as `DatabaseError`, except a full disk, which callers
/// outside this module must tell apart without importing GRDB).
package enum BotStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  case cannotCreateFile(path: String)
  /// A tool that only reads (`status`, `export`) found no database there.
  case noDatabase(path: String)
  /// SQLite could not write for lack of space (SQLITE_FULL): the transaction was rolled back, nothing of it is stored.
  case storageFull
  /// The database could not be opened or migrated and the disk holding it has (almost) no space left: SQLite needs
  /// room for its write-ahead log and shared-memory files before it reads anything.
  case diskFullAtOpen(path: String, freeBytes: Int64)
  /// A backup failed and the disk it was writing to (or the database's) has (almost) no space left.
  /// `isDatabase`: the full disk is the database's, which SQLite needs room on to read it at all.
  case diskFullForBackup(path: String, freeBytes: Int64, isDatabase: Bool)
  /// The database was migrated by a newer build: its schema has migrations this build does not know, so opening it
  /// could misread or damage what the newer build stored. `databaseSchema` is its newest migration, `knownSchema`
  /// this build's.
  case newerSchema(path: String, databaseSchema: String, knownSchema: String)
  /// A tool that only reads (`status`) found a database an older build wrote and nobody has migrated yet: the tables
  /// the pending migrations add are not there to read. `databaseSchema` is its newest migration, `pending` the rest.
  case olderSchema(path: String, databaseSchema: String, pending: [String])

  package var description: String {
    switch self {
    case .newerSchema(let path, let databaseSchema, let knownSchema):
      "The database at \(path) has schema \(databaseSchema), written by a newer AwfulBot than this one, which knows "
        + "schema up to \(knownSchema): start the newer build again, or restore a backup this build made "
        + "(awfulbot restore); nothing was changed."
    case .olderSchema(let path, let databaseSchema, let pending):
      "The database at \(path) has schema \(databaseSchema), written by an older AwfulBot; this one reads it after "
        + "\(pending.count == 1 ? "migration" : "migrations") \(pending.joined(separator: ", ")): run "
        + "`awfulbot migrate` (it takes a backup first with --backup) or start the bot, then ask again. Nothing was "
        + "changed."
    case .cannotCreateFile(let path):
      "Cannot create the database file at \(path); check that the directory exists and is writable."
    case .noDatabase(let path):
      "There is no database at \(path); check dataDirectory in the config (the bot creates it on its first run)."
    case .storageFull:
      "The disk holding the bot's database is full: SQLite could not write (SQLITE_FULL)."
    case .diskFullAtOpen(let path, let freeBytes):
      "Cannot open the database at \(path): the disk holding it is full (\(freeBytes / 1024) KiB free), and SQLite "
        + "needs room for its journal files before it can start. Free some space there and start the bot again; "
        + "nothing stored is lost."
    case .diskFullForBackup(let path, let freeBytes, let isDatabase):
      "The backup failed: the disk holding \(path) is full (\(freeBytes / 1024) KiB free). The partial copy is "
        + "removed and the database is untouched; "
        + (isDatabase
          ? "SQLite needs some room beside the database to read it, so free some space on that disk."
          : "free some space there, or back up to another disk.")
    }
  }

  /// Whether `error` is a write refused for lack of space.
  package static func isStorageFull(_ error: any Error) -> Bool {
    switch error as? BotStoreError {
    case .storageFull, .diskFullAtOpen: true
    default: false
    }
  }
}
