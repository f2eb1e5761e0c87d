import ChatBridge
import Foundation

/// What the subscription and watch commands (`subscribe`, `unsubscribe`, `subscriptions`, `watch`, `unwatch`) and
/// `unbookmark`'s check for watchers need: what rooms follow.
/// Errors thrown are shown to the user by their `description` (`EngineError` says things fit for chat).
package protocol SubscriptionsEngine: Sendable {
  func subscribe(
    room: RoomRef, to target: SubscriptionTarget, filters: SubscriptionFilters, backfill: Int, createdBy: String?
  ) async throws -> SubscribeResult
  func unsubscribe(room: RoomRef, from target: SubscriptionTarget) async throws -> Subscription?
  func subscriptions(room: RoomRef) async throws -> [Subscription]
  /// - Parameter mayAddBookmark: whether the asker may bookmark the thread on the forum account when it is not yet
  ///   (else `EngineError.bookmarkNeeded`).
  func watch(
    threadID: String, room: RoomRef, filters: SubscriptionFilters, backfill: Int, createdBy: String?,
    mayAddBookmark: Bool
  ) async throws -> SubscribeResult
  func unwatch(threadID: String, room: RoomRef) async throws -> UnwatchResult?
  func roomsWatching(threadID: String) async throws -> [RoomRef]
}

extension SubscriptionBook: SubscriptionsEngine {}
