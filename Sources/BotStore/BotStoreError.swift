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

  package var description: String {
    switch self {
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
