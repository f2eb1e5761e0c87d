import Foundation
import GRDB

/// SQLite's online backup of the bot's database file into a new file, in steps, while the daemon goes on writing.
///
/// The copy reads one snapshot: the source connection opens its read transaction before the first step and keeps
/// it to the last. Without that, SQLite ends the read after each step, sees the daemon's commits at the next one and
/// starts the copy over, which under a steady writer would never finish. In WAL mode that read blocks no writer
/// (it only keeps the WAL from being checkpointed past it until the copy ends), so the steps are not there for the
/// daemon's locks: they let a caller stop a long copy (at shutdown) and space out its disk I/O.
package enum OnlineBackup {
  /// What one copy did.
  package struct Result: Sendable, Hashable {
    /// Database pages copied.
    package var pages: Int
    /// The size of the finished file.
    package var bytes: Int64
  }

  /// Copies the database at `source` to `destination`, which must not exist, and is created mode 0600 (it holds the
  /// forum session and the Matrix keys). The copy is written under `destination + ".partial"` and renamed when
  /// complete, so a file at `destination` is always a whole backup. `afterStep` runs after each step with the pages
  /// still to copy and the total; what it throws aborts the copy (the partial file is removed). `freeSpace` tells the
  /// free bytes near a path (a seam for tests).
  package static func copy(
    databaseAt source: String, to destination: String, pagesPerStep: Int32 = 1024,
    afterStep: (_ remaining: Int, _ total: Int) throws -> Void = { _, _ in },
    freeSpace: (String) -> Int64? = BotDatabase.freeBytes(near:)
  ) throws -> Result {
    guard FileManager.default.fileExists(atPath: source) else { throw BotStoreError.noDatabase(path: source) }
    let manager = FileManager.default
    let partial = destination + ".partial"
    guard !manager.fileExists(atPath: destination), !manager.fileExists(atPath: partial) else {
      throw BotStoreError.cannotCreateFile(path: destination)
    }
    // Private before SQLite ever opens it: SQLite would create it with the umask's mode.
    guard manager.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: Self.privateMode]) else {
      throw BotStoreError.cannotCreateFile(path: destination)
    }
    do {
      var configuration = Configuration()
      configuration.readonly = true
      configuration.busyMode = .timeout(BotDatabase.busyTimeout)
      let reader = try DatabaseQueue(path: source, configuration: configuration)
      defer { try? reader.close() }
      let target = try DatabaseQueue(path: partial)
      var pages = 0
      do {
        // GRDB takes the progress closure as optional, hence escaping; it is only called during `backup`.
        try withoutActuallyEscaping(afterStep) { afterStep in
          try reader.read { db in
            // Pins the snapshot (see the type's comment): the read transaction starts with the first read.
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            try target.writeWithoutTransaction { targetDB in
              try db.backup(to: targetDB, pagesPerStep: pagesPerStep) { progress in
                pages = progress.totalPageCount
                if !progress.isCompleted { try afterStep(progress.remainingPageCount, progress.totalPageCount) }
              }
            }
          }
        }
        try target.close()
      } catch {
        try? target.close()
        throw error
      }
      try manager.setAttributes([.posixPermissions: Self.privateMode], ofItemAtPath: partial)
      try manager.moveItem(atPath: partial, toPath: destination)
      let size = (try? manager.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.int64Value ?? 0
      return Result(pages: pages, bytes: size)
    } catch {
      for suffix in ["", "-journal", "-wal", "-shm"] { try? manager.removeItem(atPath: partial + suffix) }
      // SQLite says "disk I/O error" when it cannot make a journal file: name the full disk instead.
      for path in [destination, source] {
        if let free = freeSpace(path), free < BotDatabase.nearlyFullBytes {
          throw BotStoreError.diskFullForBackup(path: path, freeBytes: free, isDatabase: path == source)
        }
      }
      throw error
    }
  }

  static let privateMode = NSNumber(value: Int16(0o600))
}
