import Foundation
import GRDB

/// The bot's database opened read-only, for `awfulbot status` and `export` while the daemon runs: WAL lets this
/// connection read a consistent snapshot while the daemon writes, and read-only means it never migrates, locks for
/// writing or changes the file.
package final class ReadOnlyDatabase: Sendable {
  private let queue: DatabaseQueue
  package let path: String

  package init(path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else { throw BotStoreError.noDatabase(path: path) }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(BotDatabase.busyTimeout)
    queue = try DatabaseQueue(path: path, configuration: configuration)
    self.path = path
  }

  /// Runs `body` in one read transaction (one consistent snapshot).
  package func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
    try queue.read { db in try body(StoreTransaction(db: db)) }
  }

  /// Migrations the database has run, and those this build knows but it has not (run by `migrate` or `run`).
  /// `known`: the migrations this build has (a seam for tests, which play a newer build).
  package func migrationState(known: [String] = BotMigrations.migrator.migrations) throws -> (
    applied: [String], pending: [String]
  ) {
    try queue.read { db in
      let applied = try BotMigrations.migrator.appliedMigrations(db)
      return (applied, known.filter { !applied.contains($0) })
    }
  }

  /// Copies the database to `destination` with SQLite's online backup API: a consistent copy even while the
  /// daemon writes. The destination must not exist yet.
  package func backup(to destination: String) throws {
    guard !FileManager.default.fileExists(atPath: destination) else {
      throw BotStoreError.cannotCreateFile(path: destination)
    }
    let target = try DatabaseQueue(path: destination)
    try queue.backup(to: target)
    try target.close()
    try FileManager.default.setAttributes(
      [.posixPermissions: NSNumber(value: Int16(0o600))], ofItemAtPath: destination)
  }

  package func close() throws { try queue.close() }
}
