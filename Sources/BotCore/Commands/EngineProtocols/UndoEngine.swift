/// What every command that changes something needs to make it undoable, and what `undo` needs to revert it.
package protocol UndoEngine: Sendable {
  func recordUndo(room: RoomRef, userID: String, summary: String, actions: [UndoAction]) async throws
  func takeUndo(room: RoomRef, userID: String) async throws -> UndoEntry?
  func revert(_ entry: UndoEntry) async throws
}
