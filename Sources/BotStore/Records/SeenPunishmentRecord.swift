import Foundation
import GRDB

/// A Leper's Colony entry already relayed (or recorded without relaying), by its identity.
package struct SeenPunishmentRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "seenPunishment"

  package var identity: String
  /// When the punishment was given, as the row says.
  package var punishedAt: Date
  package var seenAt: Date

  package init(identity: String, punishedAt: Date, seenAt: Date) {
    self.identity = identity
    self.punishedAt = punishedAt
    self.seenAt = seenAt
  }
}
