import ChatBridge
import Foundation

/// A user's last change in a room and how to revert it.
package struct UndoEntry: Sendable, Hashable {
  package var id: Int64
  package var room: RoomRef
  package var userID: String
  /// What was done, in words ("bookmarked thread 123").
  package var summary: String
  package var actions: [UndoAction]
  package var createdAt: Date

  package init(id: Int64, room: RoomRef, userID: String, summary: String, actions: [UndoAction], createdAt: Date) {
    self.id = id
    self.room = room
    self.userID = userID
    self.summary = summary
    self.actions = actions
    self.createdAt = createdAt
  }
}
