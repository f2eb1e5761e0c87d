import Foundation
import GRDB

/// A forum thread the bot has seen, with the relay cursor: posts with index above `cursorIndex` are new.
package struct ThreadRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "thread"

  package var id: String
  package var title: String
  package var forumID: String?
  package var replyCount: Int
  package var lastPostAt: Date?
  package var lastPostAuthor: String?
  /// Highest post index (1-based in the thread) already relayed or deliberately skipped (seeding).
  package var cursorIndex: Int
  package var cursorPostID: String?
  package var isBookmarked: Bool
  /// The bookmark's star colour as the forum's `category_id`.
  package var star: Int?
  /// The bot bookmarked it for a `watch`, so `unwatch` may remove the bookmark again.
  package var addedByBot: Bool
  package var isClosed: Bool
  package var firstSeenAt: Date
  package var updatedAt: Date
  /// When a bookmarks page last listed it (nil: never, or not since the column was added).
  package var listedAt: Date?

  package init(
    id: String, title: String = "", forumID: String? = nil, replyCount: Int = 0, lastPostAt: Date? = nil,
    lastPostAuthor: String? = nil, cursorIndex: Int = 0, cursorPostID: String? = nil, isBookmarked: Bool = false,
    star: Int? = nil, addedByBot: Bool = false, isClosed: Bool = false, firstSeenAt: Date, updatedAt: Date,
    listedAt: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.forumID = forumID
    self.replyCount = replyCount
    self.lastPostAt = lastPostAt
    self.lastPostAuthor = lastPostAuthor
    self.cursorIndex = cursorIndex
    self.cursorPostID = cursorPostID
    self.isBookmarked = isBookmarked
    self.star = star
    self.addedByBot = addedByBot
    self.isClosed = isClosed
    self.firstSeenAt = firstSeenAt
    self.updatedAt = updatedAt
    self.listedAt = listedAt
  }
}
