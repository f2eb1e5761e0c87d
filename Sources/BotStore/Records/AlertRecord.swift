import Foundation
import GRDB

/// A room wants to hear when a forum user is quoted or mentioned. `username` compares case-insensitively.
package struct AlertRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "alert"

  package var transport: String
  package var room: String
  package var username: String
  package var createdAt: Date
  package var createdBy: String?

  package init(transport: String, room: String, username: String, createdAt: Date, createdBy: String? = nil) {
    self.transport = transport
    self.room = room
    self.username = username
    self.createdAt = createdAt
    self.createdBy = createdBy
  }
}
