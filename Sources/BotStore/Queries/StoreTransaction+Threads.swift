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

  /// After a complete bookmarks listing: threads not in it are no longer bookmarked.
  package func markUnbookmarked(allExcept ids: Set<String>) throws {
    let stale = try String.fetchAll(db, sql: "SELECT id FROM thread WHERE isBookmarked = 1")
      .filter { !ids.contains($0) }
    for id in stale {
      try db.execute(sql: "UPDATE thread SET isBookmarked = 0 WHERE id = ?", arguments: [id])
    }
  }
}
