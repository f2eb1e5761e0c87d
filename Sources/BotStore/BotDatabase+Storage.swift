import Foundation
import GRDB

extension BotDatabase {
  /// Bytes a probe must commit before the storage counts as having room again: enough that the next poll's rows fit
  /// in what the probe frees (its pages stay in the file, free for reuse), so the state does not flip back at once.
  static let probeBytes = 128 * 1024

  /// Whether the database takes writes: true at once while no write has failed for lack of space; otherwise commits
  /// a probe of `probeBytes` (then deletes it), and when that lands marks the storage as having room again.
  /// The engine calls this before a poll while the disk is full, so a poll starts only when its rows can be saved.
  package func checkStorage() async -> Bool {
    guard storage.fullSince != nil else { return true }
    let size = Self.probeBytes
    do {
      // Committed, not rolled back: a real disk only refuses at commit, when the pages reach the write-ahead log.
      try await writer.write { db in
        try db.execute(
          sql: "INSERT OR REPLACE INTO storageProbe (id, filler) VALUES (1, zeroblob(?))", arguments: [size])
      }
      try await writer.write { db in
        try db.execute(sql: "DELETE FROM storageProbe")
      }
    } catch {
      // Still full (or another failure, which the next write reports in its own words).
      return false
    }
    storage.noteRoom()
    return true
  }

  /// Caps the database file at its present size plus `extraPages` pages, as a full disk would (SQLite then refuses
  /// growing writes with SQLITE_FULL); compacts it first so no free page is left to fill. For tests and drills:
  /// `PRAGMA max_page_count` is a setting of the writer connection, gone when the database is closed.
  /// Returns the cap in pages.
  @discardableResult
  package func limitGrowth(extraPages: Int = 0) throws -> Int {
    try writer.vacuum()
    return try writer.writeWithoutTransaction { db in
      let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
      return try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + max(extraPages, 0))") ?? 0
    }
  }

  /// Lifts the cap of `limitGrowth` (SQLite's own limit again).
  package func removeGrowthLimit() throws {
    try writer.writeWithoutTransaction { db in
      _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = 4294967294")
    }
  }
}
