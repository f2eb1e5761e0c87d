import Foundation
import GRDB

/// A forum whose new threads some room follows; thread ids only grow, so the highest seen marks what is new.
package struct WatchedForumRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "watchedForum"

  package var forumID: String
  package var title: String?
  package var highestThreadID: Int
  package var updatedAt: Date

  package init(forumID: String, title: String? = nil, highestThreadID: Int, updatedAt: Date) {
    self.forumID = forumID
    self.title = title
    self.highestThreadID = highestThreadID
    self.updatedAt = updatedAt
  }
}
