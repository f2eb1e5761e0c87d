import BotStore
import Foundation

/// `awfulbot migrate`: backs the database up (optional) and brings its schema up to this version's.
package enum DatabaseMaintenance {
  package struct MigrationOutcome: Sendable {
    package var applied: [String]
    package var newlyApplied: [String]
    package var backupPath: String?
  }

  /// Applies pending migrations to the database at `path` (creating it when missing), after an online backup to
  /// `backupPath` when given. Safe while the daemon runs: the backup reads a snapshot and migrations take the
  /// write lock like any other transaction.
  package static func migrate(databasePath path: String, backupPath: String? = nil) throws -> MigrationOutcome {
    var before: [String] = []
    if FileManager.default.fileExists(atPath: path) {
      let existing = try ReadOnlyDatabase(path: path)
      before = try existing.migrationState().applied
      if let backupPath { try existing.backup(to: backupPath) }
      try existing.close()
    } else {
      try FileManager.default.createDirectory(
        atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    let database = try BotDatabase(path: path)
    let applied = try database.appliedMigrations()
    try database.close()
    return MigrationOutcome(
      applied: applied, newlyApplied: applied.filter { !before.contains($0) },
      backupPath: FileManager.default.fileExists(atPath: path) ? backupPath : nil)
  }

  /// An online backup of the database at `path` into `destination` (which must not exist).
  package static func backup(databasePath path: String, to destination: String) throws {
    let database = try ReadOnlyDatabase(path: path)
    defer { try? database.close() }
    try database.backup(to: destination)
  }
}
