import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// The engine: it builds the parts that do the work and hands them out. There are no calls of its own to learn;
/// each part is the API for its job, and command handlers see each through the narrow protocol they need
/// (`CommandContext`):
/// - `subscriptions` (`SubscriptionBook`: what rooms follow, with `SubscriptionBackfill`) and `bookmarks`
///   (`ForumBookmarks`: the account's bookmarks on the forum);
/// - `roomSettings` (`RoomSettingsBook`) and `alerts` (`AlertBook`): how each room is told;
/// - `polling` (`PollCycle`: one poll of one source, through `BookmarksPoll`, `AnnouncementsPoll`, `ForumPoll` and
///   `PrivateMessagesPoll`, and the wake-ups and intervals of the poller);
/// - `outbox` (`OutboxWriter`: rows in, dispatchers woken, held items released, command answers queued);
/// - `statusReports` (`StatusReporter`: `health`, `status`, `why`), `undo` (`UndoLog`), `relayMap` (which chat
///   message carries which post) and `privateMessageRooms`.
///
/// State lives in the database, not here, so several engines on one database file (a restart) see the same
/// subscriptions, cursors and outbox. The only state in memory is the private-message rooms (`PrivateMessageRooms`,
/// behind a lock) and the wake signals. The engine talks to the forum only through `Forum`.
package final class BotEngine: Sendable {
  package let database: BotDatabase
  package let forum: any Forum
  package let configuration: EngineConfiguration
  package let composer: MessageComposer
  /// Capabilities of each configured transport by name; rows are rendered for the room's transport.
  package let transports: [String: ChatCapabilities]
  let logger: Logger
  let now: @Sendable () -> Date

  /// What rooms follow: subscriptions and watched threads.
  package let subscriptions: SubscriptionBook
  /// The bot account's bookmarks on the forum.
  package let bookmarks: ForumBookmarks
  package let roomSettings: RoomSettingsBook
  package let alerts: AlertBook
  /// Polls, the poller's wake-ups and the intervals a reloaded config may change.
  package let polling: PollCycle
  package let outbox: OutboxWriter
  /// `health`, `status` and `why`.
  package let statusReports: StatusReporter
  package let undo: UndoLog
  /// Which of the bot's messages carries which post (answers to relays).
  package let relayMap: RelayMap
  /// The rooms told about new private messages.
  package let privateMessageRooms: PrivateMessageRooms
  /// Which rooms the metrics name (the configured ones; the rest are `other`).
  package let metricRoomLabels = MetricRoomLabels()

  /// - Parameters:
  ///   - transports: name → capabilities of every transport rooms may live on.
  ///   - now: the clock; tests pass a controllable one so quiet hours and digests need no sleeping.
  package init(
    database: BotDatabase, forum: any Forum, transports: [String: ChatCapabilities],
    configuration: EngineConfiguration = EngineConfiguration(), logger: Logger = Logger(label: "awfulbot.engine"),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.database = database
    self.forum = forum
    self.transports = transports
    self.configuration = configuration
    self.logger = logger
    self.now = now
    StorageLog.follow(database, logger: logger)
    let pollSignal = WakeSignal()
    let composer = MessageComposer(
      baseURL: forum.baseURL, excerptLength: configuration.excerptLength, timeZone: configuration.timeZone)
    self.composer = composer
    let outbox = OutboxWriter(
      database: database, composer: composer, transports: transports, configuration: configuration, now: now)
    let privateMessageRooms = PrivateMessageRooms(configuration.privateMessageRooms, pollSignal: pollSignal)
    let subscriptions = SubscriptionBook(
      database: database, forum: forum, configuration: configuration, transports: transports,
      backfiller: SubscriptionBackfill(
        database: database, forum: forum, composer: composer, transports: transports, outbox: outbox, now: now),
      pollSignal: pollSignal, now: now)
    let bookmarks = ForumBookmarks(database: database, forum: forum, pollSignal: pollSignal)
    let roomSettings = RoomSettingsBook(
      database: database, configuration: configuration, transports: transports, outbox: outbox, now: now)
    let alerts = AlertBook(database: database, configuration: configuration, transports: transports, now: now)
    self.outbox = outbox
    self.privateMessageRooms = privateMessageRooms
    self.subscriptions = subscriptions
    self.bookmarks = bookmarks
    self.roomSettings = roomSettings
    self.alerts = alerts
    self.polling = PollCycle(
      database: database, forum: forum, configuration: configuration,
      schedule: PollSchedule(PollSchedule.Intervals(configuration)), pollSignal: pollSignal, composer: composer,
      transports: transports, privateMessageRooms: privateMessageRooms, outbox: outbox, logger: logger, now: now)
    self.relayMap = RelayMap(database: database, now: now)
    self.statusReports = StatusReporter(
      database: database, forum: forum, configuration: configuration, privateMessageRooms: privateMessageRooms,
      now: now)
    self.undo = UndoLog(
      database: database, configuration: configuration, now: now, subscriptions: subscriptions, bookmarks: bookmarks,
      roomSettings: roomSettings, alerts: alerts)
  }
}
