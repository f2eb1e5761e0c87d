import Foundation
import GRDB

extension StoreTransaction {
  package func thread(id: String) throws -> ThreadRecord? {
    try ThreadRecord.fetchOne(db, key: id)
  }

  package func threads(ids: [String]) throws -> [String: ThreadRecord] {
    let records = try ThreadRecord.filter(keys: ids).fetchAll(db)
    return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  package func threadCount() throws -> Int {
    try ThreadRecord.fetchCount(db)
  }

  package func allThreads() throws -> [ThreadRecord] {
    try ThreadRecord.order(Column("lastPostAt").desc).fetchAll(db)
  }

  package func bookmarkedThreads() throws -> [ThreadRecord] {
    try ThreadRecord.filter(Column("isBookmarked") == true).order(Column("lastPostAt").desc).fetchAll(db)
  }

  /// Inserts or replaces the thread row.
  package func save(_ thread: ThreadRecord) throws {
    try thread.save(db)
  }

  /// Notes that a bookmarks page listed these threads at `date`.
  package func markListed(ids: [String], at date: Date) throws {
    guard !ids.isEmpty else { return }
    try ThreadRecord.filter(keys: ids).updateAll(db, Column("listedAt").set(to: date))
  }

  /// The threads the store holds as bookmarked that no bookmarks page listed since `date`, newest last post first.
  package func bookmarkedThreadIDs(notListedSince date: Date) throws -> [String] {
    try String.fetchAll(
      db,
      sql: "SELECT id FROM thread WHERE isBookmarked = 1 AND (listedAt IS NULL OR listedAt < ?) "
        + "ORDER BY lastPostAt DESC",
      arguments: [date])
  }

  /// The threads are no longer bookmarked.
  package func markUnbookmarked(ids: [String]) throws {
    guard !ids.isEmpty else { return }
    try ThreadRecord.filter(keys: ids).updateAll(db, Column("isBookmarked").set(to: false))
  }
}
