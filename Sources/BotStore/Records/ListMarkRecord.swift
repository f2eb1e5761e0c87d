import Foundation
import GRDB

/// What reading a newest-first thread list remembers from one poll to the next (BotCore's `ThreadListMark`): one
/// row per list, `bookmarks` or `forum:<id>`.
package struct ListMarkRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "listMark"

  package var list: String
  package var newestLastPost: Date?
  package var lastFullSweep: Date?
  package var isOrdered: Bool
  package var updatedAt: Date

  package init(list: String, newestLastPost: Date?, lastFullSweep: Date?, isOrdered: Bool, updatedAt: Date) {
    self.list = list
    self.newestLastPost = newestLastPost
    self.lastFullSweep = lastFullSweep
    self.isOrdered = isOrdered
    self.updatedAt = updatedAt
  }
}
