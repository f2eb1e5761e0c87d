import Foundation
import GRDB

/// Something held back for a room in quiet hours or digest mode, released later as one digest message.
package struct HeldItemRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
  package static let databaseTableName = "heldItem"

  package var id: Int64?
  package var transport: String
  package var room: String
  package var kind: HeldKind
  package var threadID: String?
  package var threadTitle: String?
  /// The post id, or another stable key for messages, so the same item is never held twice.
  package var postID: String?
  package var payload: String
  package var reason: String?
  package var createdAt: Date

  package init(
    id: Int64? = nil, transport: String, room: String, kind: HeldKind, threadID: String? = nil,
    threadTitle: String? = nil, postID: String? = nil, payload: String, reason: String? = nil, createdAt: Date
  ) {
    self.id = id
    self.transport = transport
    self.room = room
    self.kind = kind
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.postID = postID
    self.payload = payload
    self.reason = reason
    self.createdAt = createdAt
  }

  package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
