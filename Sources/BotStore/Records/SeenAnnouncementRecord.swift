import Foundation
import GRDB

/// An announcement already relayed (or seeded), by the hash of its title, author, date and body.
package struct SeenAnnouncementRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "seenAnnouncement"

  package var hash: String
  package var title: String?
  package var seenAt: Date

  package init(hash: String, title: String?, seenAt: Date) {
    self.hash = hash
    self.title = title
    self.seenAt = seenAt
  }
}
