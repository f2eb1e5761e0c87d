import ChatBridge
import ForumModel
import Foundation

/// What command handlers need from the engine. `BotEngine` conforms as is (same signatures), so handlers run
/// against the real engine and store in tests; the protocol only keeps handlers from reaching into engine internals.
/// Errors thrown are shown to the user by their `description` (`EngineError` says things fit for chat).
package protocol CommandEngine: Sendable {
  func subscribe(
    room: RoomRef, to target: SubscriptionTarget, filters: SubscriptionFilters, backfill: Int, createdBy: String?
  ) async throws -> SubscribeResult
  func unsubscribe(room: RoomRef, from target: SubscriptionTarget) async throws -> Subscription?
  func subscriptions(room: RoomRef) async throws -> [Subscription]
  func watch(threadID: String, room: RoomRef, filters: SubscriptionFilters, backfill: Int, createdBy: String?)
    async throws -> SubscribeResult
  func unwatch(threadID: String, room: RoomRef) async throws -> UnwatchResult?
  func roomsWatching(threadID: String) async throws -> [RoomRef]
  func bookmark(threadID: String, star: StarColor?) async throws -> (wasBookmarked: Bool, previousStar: StarColor?)
  func unbookmark(threadID: String) async throws -> StarColor?

  func settings(room: RoomRef) async throws -> RoomSettings
  func setMode(room: RoomRef, to mode: RelayMode) async throws -> RelayMode
  func setQuiet(room: RoomRef, to quiet: QuietHours?) async throws -> (daily: QuietHours?, until: Date?)
  func setUnfurl(room: RoomRef, to enabled: Bool) async throws -> Bool
  func setPaused(room: RoomRef, to paused: Bool) async throws -> Bool

  func addAlert(room: RoomRef, username: String, createdBy: String?) async throws -> Bool
  func removeAlert(room: RoomRef, username: String) async throws -> Bool
  func alerts(room: RoomRef) async throws -> [String]

  func status(room: RoomRef) async throws -> RoomStatus
  func why(postID: String, room: RoomRef) async throws -> WhyAnswer

  func recordUndo(room: RoomRef, userID: String, summary: String, actions: [UndoAction]) async throws
  func takeUndo(room: RoomRef, userID: String) async throws -> UndoEntry?
  func revert(_ entry: UndoEntry) async throws

  /// Whether new private messages are told in `room` (`privateMessages.rooms`): the PM commands work only there
  /// and in direct chats.
  func isPrivateMessageRoom(_ room: RoomRef) -> Bool
}

extension BotEngine: CommandEngine {}
