import Foundation
import GRDB

/// How to revert one user's last change in a room; `actions` is JSON the engine defines.
package struct UndoRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
  package static let databaseTableName = "undoEntry"

  package var id: Int64?
  package var transport: String
  package var room: String
  package var userID: String
  package var summary: String
  package var actions: String
  package var createdAt: Date

  package init(
    id: Int64? = nil, transport: String, room: String, userID: String, summary: String, actions: String,
    createdAt: Date
  ) {
    self.id = id
    self.transport = transport
    self.room = room
    self.userID = userID
    self.summary = summary
    self.actions = actions
    self.createdAt = createdAt
  }

  package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
