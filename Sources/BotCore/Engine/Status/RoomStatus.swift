import ChatBridge
import ForumModel
import Foundation

/// What `status` shows for one room.
package struct RoomStatus: Sendable, Hashable {
  package var room: RoomRef
  package var settings: RoomSettings
  package var subscriptions: [Subscription]
  package var alerts: [String]
  /// Messages waiting to be sent to this room.
  package var pending: Int
  package var delivered: Int
  /// Messages the transport refused for good.
  package var failed: Int
  /// Messages given up on after repeated failures.
  package var deadLetters: Int
  /// Messages never sent because the bot stopped twice while sending each (the poison-message guard).
  package var parked = 0
  /// The newest parked rows, named for the sentence (`ParkedText`).
  package var parkedRows: [String] = []
  /// Items held for quiet hours or the digest.
  package var held: Int
  /// Whether the room is in quiet hours right now.
  package var isQuietNow: Bool
  /// The last few undeliverable rows with their errors, newest first.
  package var recentFailures: [String]
  package var sources: [SourceHealth]
  /// Waiting messages from which new posts are summarised (`EngineConfiguration.backlogLimit`).
  package var backlogLimit: Int
  /// The forum account's probation as the last page read showed it: reading goes on, posting is refused.
  package var probation: Probation?
  /// The wall in front of the forum (a Cloudflare challenge, a rate limit, maintenance) and since when; nil while the
  /// forum answers itself.
  package var forumWall: ForumWallSighting?
  /// Whether new private messages to the bot account are told in this room (`privateMessages.rooms`).
  package var receivesPrivateMessages = false
  /// Since when the bot's disk is full (nothing new can be saved); nil while it has room.
  package var storageFullSince: Date?

  package init(
    room: RoomRef, settings: RoomSettings, subscriptions: [Subscription], alerts: [String], pending: Int,
    delivered: Int, failed: Int, deadLetters: Int, held: Int, isQuietNow: Bool, recentFailures: [String],
    sources: [SourceHealth], backlogLimit: Int = 30
  ) {
    self.backlogLimit = backlogLimit
    self.room = room
    self.settings = settings
    self.subscriptions = subscriptions
    self.alerts = alerts
    self.pending = pending
    self.delivered = delivered
    self.failed = failed
    self.deadLetters = deadLetters
    self.held = held
    self.isQuietNow = isQuietNow
    self.recentFailures = recentFailures
    self.sources = sources
  }
}
