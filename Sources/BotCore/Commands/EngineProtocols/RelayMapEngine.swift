/// What answering relays needs (a Matrix reply, `re r7`, `nick: ^`, a reaction): which of the bot's messages an
/// answer points at, and the receipt of a preview to edit.
package protocol RelayMapEngine: Sendable {
  func message(room: RoomRef, messageID: String) async throws -> RelayedMessage?
  func message(room: RoomRef, reference: String) async throws -> RelayedMessage?
  func lastReferenced(room: RoomRef) async throws -> RelayedMessage?
  func answerReceipt(room: RoomRef, answering messageID: String) async throws -> String?
  /// Records that `postID` was posted from `room` (a confirmed reply), so the poll does not relay it back there:
  /// the room has read its text in the preview and the "Posted" answer already.
  func notePostedFromChat(room: RoomRef, postID: String) async throws
}

extension RelayMap: RelayMapEngine {}
