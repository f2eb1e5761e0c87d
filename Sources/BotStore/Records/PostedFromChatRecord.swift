import Foundation
import GRDB

/// A post the bot made on the forum from a room (a confirmed reply): the relay does not send it back to that room,
/// which read it already.
package struct PostedFromChatRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "postedFromChat"

  package var transport: String
  package var room: String
  package var postID: String
  package var postedAt: Date

  package init(transport: String, room: String, postID: String, postedAt: Date) {
    self.transport = transport
    self.room = room
    self.postID = postID
    self.postedAt = postedAt
  }
}
