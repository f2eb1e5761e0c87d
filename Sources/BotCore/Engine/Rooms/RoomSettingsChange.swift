/// A room's settings before and after one `RoomSettingsBook.update(room:_:)`, with the undo for it.
package struct RoomSettingsChange: Sendable, Hashable {
  package let before: RoomSettings
  package let after: RoomSettings
  /// The undo step that puts back what this change altered and nothing else, so undoing it leaves a later change
  /// to another setting in place.
  package let undo: UndoAction

  package init(before: RoomSettings, after: RoomSettings) throws {
    self.before = before
    self.after = after
    undo = .restoreRoomSettings(try RoomSettingsPatch(restoring: before, over: after))
  }
}
