/// What every command that changes something needs to make it undoable, and what `undo` needs to revert it.
package protocol UndoEngine: Sendable {
  func record(room: RoomRef, userID: String, summary: String, actions: [UndoAction]) async throws
  func take(room: RoomRef, userID: String) async throws -> UndoEntry?
  func revert(_ entry: UndoEntry) async throws
}

extension UndoLog: UndoEngine {}
