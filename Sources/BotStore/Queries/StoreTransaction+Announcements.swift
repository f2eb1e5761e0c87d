import Foundation
import GRDB

/// Announcements already relayed, by content hash.
extension StoreTransaction {
  package func hasSeenAnnouncement(hash: String) throws -> Bool {
    try SeenAnnouncementRecord.exists(db, key: hash)
  }

  package func markAnnouncementSeen(_ record: SeenAnnouncementRecord) throws {
    try record.insert(db, onConflict: .ignore)
  }
}
