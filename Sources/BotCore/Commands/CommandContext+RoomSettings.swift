extension CommandContext {
  /// Changes this room's settings and makes the change undoable under `summary` (`undo` puts back only what it
  /// altered). A change that alters nothing records no undo, so `undo` still reverts the sender's last real change.
  @discardableResult
  func changeRoomSettings(_ summary: String, _ change: @escaping @Sendable (inout RoomSettings) throws -> Void)
    async throws -> RoomSettingsChange
  {
    let result = try await roomSettings.update(room: room, change)
    if result.before != result.after {
      try await undo.record(room: room, userID: userID, summary: summary, actions: [result.undo])
    }
    return result
  }
}
