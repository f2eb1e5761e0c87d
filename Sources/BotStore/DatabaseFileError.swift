/// Why a file cannot be taken for the bot's database (`DatabaseFile.inspect`).
package enum DatabaseFileError: Error, Sendable, Hashable, CustomStringConvertible {
  case notSQLite(path: String, detail: String)
  case damaged(path: String, detail: String)
  case notAwfulBot(path: String, missing: String)

  package var description: String {
    switch self {
    case .notSQLite(let path, let detail): "\(path) is not an SQLite database (\(detail))"
    case .damaged(let path, let detail): "\(path) is damaged: SQLite's quick_check says \(detail)"
    case .notAwfulBot(let path, let missing): "\(path) is not an awfulbot database (it has no \(missing))"
    }
  }
}
