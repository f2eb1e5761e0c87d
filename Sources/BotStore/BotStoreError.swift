import Foundation

/// Errors of the store itself (SQLite errors pass through as `DatabaseError`, except a full disk, which callers
/// outside this module must tell apart without importing GRDB).
package enum BotStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  case cannotCreateFile(path: String)
  /// A tool that only reads (`status`, `export`) found no database there.
  case noDatabase(path: String)
  /// SQLite could not write for lack of space (SQLITE_FULL): the transaction was rolled back, nothing of it is stored.
  case storageFull

  package var description: String {
    switch self {
    case .cannotCreateFile(let path):
      "Cannot create the database file at \(path); check that the directory exists and is writable."
    case .noDatabase(let path):
      "There is no database at \(path); check dataDirectory in the config (the bot creates it on its first run)."
    case .storageFull:
      "The disk holding the bot's database is full: SQLite could not write (SQLITE_FULL)."
    }
  }

  /// Whether `error` is a write refused for lack of space.
  package static func isStorageFull(_ error: any Error) -> Bool {
    (error as? BotStoreError) == .storageFull
  }
}
