import Foundation
import GRDB

/// A poll source whose first contents were recorded without telling anyone (the announcements, the inbox), so a
/// new bot does not alert the whole backlog; `scheme` names how they were recorded, so a change of it seeds again.
package struct SeededSourceRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "seededSource"

  package var source: String
  package var scheme: String
  package var seededAt: Date

  package init(source: String, scheme: String, seededAt: Date) {
    self.source = source
    self.scheme = scheme
    self.seededAt = seededAt
  }
}
