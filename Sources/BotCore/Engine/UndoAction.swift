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
  case setMode(RelayMode)
  /// Daily quiet hours and the one-off end, as they were.
  case setQuiet(daily: QuietHours?, until: Date?)
  case setUnfurl(Bool)
  case setReplies(ReplyPermission)
  case setReactions(Bool)
  case setPaused(Bool)
  case removeAlert(username: String)
  case addAlert(username: String)
}
