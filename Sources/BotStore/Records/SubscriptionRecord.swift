import Foundation
import GRDB

/// What a room follows: `kind`, with `argument` the star colours (comma-separated category ids), the thread id or
/// the forum id, empty otherwise.
package struct SubscriptionRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
  package static let databaseTableName = "subscription"

  package var id: Int64?
  package var transport: String
  package var room: String
  package var kind: SubscriptionKind
  package var argument: String
  package var includeAuthors: [String]
  package var excludeAuthors: [String]
  package var keywords: [String]
  package var opOnly: Bool
  package var createdAt: Date
  package var createdBy: String?

  package init(
    id: Int64? = nil, transport: String, room: String, kind: SubscriptionKind, argument: String = "",
    includeAuthors: [String] = [], excludeAuthors: [String] = [], keywords: [String] = [], opOnly: Bool = false,
    createdAt: Date, createdBy: String? = nil
  ) {
    self.id = id
    self.transport = transport
    self.room = room
    self.kind = kind
    self.argument = argument
    self.includeAuthors = includeAuthors
    self.excludeAuthors = excludeAuthors
    self.keywords = keywords
    self.opOnly = opOnly
    self.createdAt = createdAt
    self.createdBy = createdBy
  }

  package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
