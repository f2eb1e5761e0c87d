import Foundation
import GRDB

/// The database's disk as the daemon last saw it, written at every heartbeat on its own. The table holds at most this
/// one row, and its columns have the same size whatever they say (`state` is `full` or `free`, dates are fixed-width
/// text), so on a full disk the update takes the old row's place in a page the file already has and still lands
/// while anything that needs a new page is refused.
package struct StorageStateRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "storageState"
  package static let full = "full"
  package static let free = "free"

  package var id: Int = 1
  /// `full` while writes fail for lack of space, `free` otherwise.
  package var state: String
  /// When writes started failing (`full`); the check's time otherwise.
  package var since: Date
  package var checkedAt: Date

  /// Since when writes fail for lack of space; nil while the disk has room.
  package var fullSince: Date? { state == Self.full ? since : nil }

  package init(fullSince: Date?, checkedAt: Date) {
    state = fullSince == nil ? Self.free : Self.full
    since = fullSince ?? checkedAt
    self.checkedAt = checkedAt
  }
}
