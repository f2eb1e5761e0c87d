/// Why `awfulbot backup` or `restore` would not go on; each says what to do instead.
package enum DatabaseBackupError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A backup never replaces a file: it may be the only good copy.
  case exists(path: String)
  /// The heartbeat in the database says the daemon runs (pid, last seen).
  case running(pid: Int32, lastSeen: String)
  /// An awfulbot holds the database's lock (`DatabaseLock`): it runs, whatever its heartbeat says.
  case locked(pid: Int32?)
  /// The current database could not be read to tell whether the daemon runs.
  case cannotTellIfRunning(path: String, detail: String)
  /// The backup was made by a newer version: these migrations are unknown to this one.
  case newerSchema(path: String, unknown: [String])
  case sameFile(path: String)

  package var description: String {
    switch self {
    case .exists(let path):
      "\(path) exists; a backup never replaces a file: give a new name, or a directory to get a dated file in it"
    case .running(let pid, let lastSeen):
      "the bot is running (process \(pid), heartbeat at \(lastSeen)): stop it first (systemctl stop awfulbot)"
    case .locked(let pid):
      "the bot is running\(pid.map { " (process \($0))" } ?? ""): it holds the database's lock, even if its heartbeat "
        + "is old (a bot that hangs still runs). Stop it first (systemctl stop awfulbot)"
    case .cannotTellIfRunning(let path, let detail):
      "cannot read \(path) to tell whether the bot runs (\(detail)); if the bot is stopped, give --force to replace "
        + "that database anyway (it is kept aside)"
    case .newerSchema(let path, let unknown):
      "\(path) was made by a newer awfulbot (its schema has \(unknown.joined(separator: ", ")), which this "
        + "version does not know): restore it with that version or a later one"
    case .sameFile(let path):
      "\(path) is the database itself; give a backup file"
    }
  }
}
