import Foundation

/// Errors of the store itself (SQLite errors pass through as `DatabaseError`).
package enum BotStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  case cannotCreateFile(path: String)

  package var description: String {
    switch self {
    case .cannotCreateFile(let path):
      "Cannot create the database file at \(path); check that the directory exists and is writable."
    }
  }
}
