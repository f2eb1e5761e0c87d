import Foundation

/// Errors of the store itself (SQLite errors pass through as `DatabaseError`).
package enum BotStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  case cannotCreateFile(path: String)
  /// A tool that only reads (`status`, `export`) found no database there.
  case noDatabase(path: String)

  package var description: String {
    switch self {
    case .cannotCreateFile(let path):
      "Cannot create the database file at \(path); check that the directory exists and is writable."
    case .noDatabase(let path):
      "There is no database at \(path); check dataDirectory in the config (the bot creates it on its first run)."
    }
  }
}
