import Foundation
import GRDB

/// The bot's SQLite database: a WAL `DatabasePool` on a file, or an in-memory `DatabaseQueue` for tests.
///
/// Everything outside this module goes through `read`/`write` and the `StoreTransaction` facade, so callers never
/// depend on GRDB directly and every multi-step change (cursor advance plus outbox rows) is one transaction.
package final class BotDatabase: Sendable {
  /// How long a writer waits for a lock held by another connection before failing with SQLITE_BUSY.
  package static let busyTimeout: TimeInterval = 5

  let writer: any DatabaseWriter
  /// The file path, nil in memory.
  package let path: String?
  /// Whether writes fail for lack of space (see `checkStorage`).
  package let storage = StorageCondition()

  /// Opens (creating when missing, mode 0600) the database file at `path` and migrates it.
  /// On a full disk this fails with `BotStoreError.diskFullAtOpen` rather than SQLite's own words for it (a "disk
  /// I/O error" while setting up the connection, as the journal files cannot be made).
  ///
  /// - Parameter freeSpace: the free bytes near a path (a seam for tests; the filesystem's figure otherwise).
  package init(path: String, freeSpace: (String) -> Int64? = BotDatabase.freeBytes(near:)) throws {
    do {
      try Self.createPrivateFile(at: path)
      var configuration = Self.configuration()
      configuration.label = "awfulbot"
      self.writer = try DatabasePool(path: path, configuration: configuration)
      self.path = path
      try Self.refuseNewerSchema(writer, path: path)
      try BotMigrations.migrator.migrate(writer)
    } catch let error as BotStoreError {
      throw error
    } catch {
      if let free = freeSpace(path), free < Self.nearlyFullBytes {
        throw BotStoreError.diskFullAtOpen(path: path, freeBytes: free)
      }
      throw error
    }
  }

  /// A database a newer build migrated is left as it is: GRDB would run this build's migrations on it and carry on
  /// with a schema it does not know.
  private static func refuseNewerSchema(_ writer: any DatabaseWriter, path: String) throws {
    let (applied, superseded) = try writer.read { db in
      (
        try BotMigrations.migrator.appliedIdentifiers(db),
        try BotMigrations.migrator.hasBeenSuperseded(db)
      )
    }
    guard superseded else { return }
    let known = BotMigrations.migrator.migrations
    let newest = applied.subtracting(known).sorted().last ?? "?"
    throw BotStoreError.newerSchema(path: path, databaseSchema: newest, knownSchema: known.last ?? "none")
  }

  /// Below this many free bytes the disk counts as full, whatever SQLite said: the write that would tell may be the
  /// one that failed.
  package static let nearlyFullBytes: Int64 = 1 << 20

  /// Free bytes for an unprivileged writer on the filesystem holding the file at `path`.
  package static func freeBytes(near path: String) -> Int64? {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory)
    return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
  }

  /// A private in-memory database, migrated; for tests and `demo`.
  package init() throws {
    self.writer = try DatabaseQueue(configuration: Self.configuration())
    self.path = nil
    try BotMigrations.migrator.migrate(writer)
  }

  /// SQLite's page cache per connection, in KiB.
  static let cacheKibibytes = 1024

  private static func configuration() -> Configuration {
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.foreignKeysEnabled = true
    // The bot's database is a few megabytes and the kernel caches its file anyway. SQLite's own page cache (2 MiB a
    // connection by default) and GRDB's five readers only made the process grow for its first quarter hour as the
    // caches filled (awfulbot-bench soak): three readers and 1 MiB each fill within minutes and then hold.
    configuration.maximumReaderCount = 3
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)")
    }
    return configuration
  }

  /// SQLite would create the file with the process umask (often 0644); the session cookies and the
  /// room list are private, so the file exists with 0600 before SQLite ever opens it.
  private static func createPrivateFile(at path: String) throws {
    let manager = FileManager.default
    if !manager.fileExists(atPath: path) {
      let created = manager.createFile(
        atPath: path, contents: nil, attributes: [.posixPermissions: NSNumber(value: Int16(0o600))])
      if !created { throw BotStoreError.cannotCreateFile(path: path) }
    }
    // Re-assert the mode on an existing file too: a copy or restore may have widened it.
    try manager.setAttributes([.posixPermissions: NSNumber(value: Int16(0o600))], ofItemAtPath: path)
  }

  /// Names of the migrations applied so far, oldest first.
  package func appliedMigrations() throws -> [String] {
    try writer.read { db in try BotMigrations.migrator.appliedMigrations(db) }
  }

  /// SQLite's journal mode (`wal` for a file database).
  package func journalMode() throws -> String {
    try writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
  }

  /// Runs `body` in one read transaction.
  package func read<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) throws -> T) async throws -> T {
    try await writer.read { db in try body(StoreTransaction(db: db)) }
  }

  /// Runs `body` in one write transaction: all of it commits, or none of it does. A full disk throws
  /// `BotStoreError.storageFull`.
  package func write<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) throws -> T) async throws -> T {
    do {
      return try await writer.write { db in try body(StoreTransaction(db: db)) }
    } catch {
      throw translated(error)
    }
  }

  /// Synchronous variants for tests and command-line tools that are not async.
  package func readNow<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
    try writer.read { db in try body(StoreTransaction(db: db)) }
  }

  package func writeNow<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
    do {
      return try writer.write { db in try body(StoreTransaction(db: db)) }
    } catch {
      throw translated(error)
    }
  }

  /// SQLITE_FULL becomes `BotStoreError.storageFull` (the engine must tell it apart without GRDB) and marks the
  /// storage full; any other error passes through.
  func translated(_ error: any Error) -> any Error {
    guard let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL else { return error }
    storage.noteFull()
    return BotStoreError.storageFull
  }

  /// Closes the connections; the database is unusable afterwards. Called last on shutdown.
  package func close() throws {
    if let pool = writer as? DatabasePool { try pool.close() }
    if let queue = writer as? DatabaseQueue { try queue.close() }
  }
}
