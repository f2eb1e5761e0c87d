import Foundation
import GRDB

extension StoreTransaction {
  package func pollPace(source: String) throws -> PollPaceRecord? {
    try PollPaceRecord.fetchOne(db, key: source)
  }

  /// Every source's pace, by source name.
  package func pollPaces() throws -> [String: PollPaceRecord] {
    Dictionary(try PollPaceRecord.fetchAll(db).map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
  }

  package func save(_ pace: PollPaceRecord) throws {
    try pace.save(db)
  }

  package func listMark(list: String) throws -> ListMarkRecord? {
    try ListMarkRecord.fetchOne(db, key: list)
  }

  package func save(_ mark: ListMarkRecord) throws {
    try mark.save(db)
  }

  package func bookmarksSweep() throws -> BookmarksSweepRecord? {
    try BookmarksSweepRecord.fetchOne(db, key: 1)
  }

  package func save(_ sweep: BookmarksSweepRecord) throws {
    try sweep.save(db)
  }

  package func removeBookmarksSweep() throws {
    _ = try BookmarksSweepRecord.deleteAll(db)
  }
}
