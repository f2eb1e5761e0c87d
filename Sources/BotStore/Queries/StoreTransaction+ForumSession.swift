import Foundation
import GRDB

/// The forum login cookies.
extension StoreTransaction {
  package func forumCookies() throws -> [ForumCookieRecord] {
    try ForumCookieRecord.order(Column("domain"), Column("name")).fetchAll(db)
  }

  /// Replaces the whole stored session with these cookies.
  package func replaceForumCookies(_ cookies: [ForumCookieRecord]) throws {
    _ = try ForumCookieRecord.deleteAll(db)
    for cookie in cookies { try cookie.insert(db) }
  }
}
