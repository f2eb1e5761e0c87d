import Foundation
import GRDB

/// A private message already alerted (or seeded at the first poll), by its forum id.
package struct SeenPrivateMessageRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "seenPrivateMessage"

  package var id: String
  package var seenAt: Date

  package init(id: String, seenAt: Date) {
    self.id = id
    self.seenAt = seenAt
  }
}
