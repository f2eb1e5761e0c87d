import Foundation
import GRDB

/// Forums watched for new threads, with their cursors.
extension StoreTransaction {
  package func watchedForum(id: String) throws -> WatchedForumRecord? {
    try WatchedForumRecord.fetchOne(db, key: id)
  }

  package func save(_ forum: WatchedForumRecord) throws {
    try forum.save(db)
  }
}
