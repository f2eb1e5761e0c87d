import ChatBridge
import ForumModel
import Foundation

/// One step that reverts a change; an undo entry holds the steps in the order to run them.
package enum UndoAction: Sendable, Hashable, Codable {
  /// Revert `bookmark`.
  case removeBookmark(threadID: String)
  /// Revert `unbookmark`.
  case addBookmark(threadID: String, star: StarColor?)
  /// Revert `subscribe`/`watch`: delete the subscription created.
  case deleteSubscription(id: Int64)
  /// Revert `unsubscribe`/`unwatch`: recreate it.
  case restoreSubscription(target: SubscriptionTarget, filters: SubscriptionFilters)
  /// Revert a room settings change (`RoomSettingsChange.undo`): put back the settings it altered.
  case restoreRoomSettings(RoomSettingsPatch)
  case removeAlert(username: String)
  case addAlert(username: String)
}
