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
  /// What every part shares (store, forum, tunables, composer, transports, logger, clock), built once here.
  package let context: EngineContext
  package var database: BotDatabase { context.database }
  package var forum: any Forum { context.forum }
  package var configuration: EngineConfiguration { context.configuration }
  package var composer: MessageComposer { context.composer }
  /// Capabilities of each configured transport by name; rows are rendered for the room's transport.
  package var transports: [String: ChatCapabilities] { context.transports }
  var logger: Logger { context.logger }
  var now: @Sendable () -> Date { context.now }

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
  ///   - answerOnFullDisk: sends a command's answer straight out when the outbox cannot take it (a full disk), as the
  ///     app assembles it from its transports; without it such an answer is an error for the caller.
  package init(
    database: BotDatabase, forum: any Forum, transports: [String: ChatCapabilities],
    configuration: EngineConfiguration = EngineConfiguration(), logger: Logger = Logger(label: "awfulbot.engine"),
    now: @escaping @Sendable () -> Date = { Date() }, answerOnFullDisk: OutboxWriter.DirectAnswer? = nil
  ) {
    let context = EngineContext(
      database: database, forum: forum, configuration: configuration, transports: transports, logger: logger, now: now)
    self.context = context
    StorageLog.follow(database, logger: logger)
    let pollSignal = WakeSignal()
    let outbox = OutboxWriter(context: context, answerOnFullDisk: answerOnFullDisk)
    let privateMessageRooms = PrivateMessageRooms(configuration.privateMessageRooms, pollSignal: pollSignal)
    let subscriptions = SubscriptionBook(
      context: context, backfiller: SubscriptionBackfill(context: context, outbox: outbox), pollSignal: pollSignal)
    let bookmarks = ForumBookmarks(context: context, pollSignal: pollSignal)
    let roomSettings = RoomSettingsBook(context: context, outbox: outbox)
    let alerts = AlertBook(context: context)
    self.outbox = outbox
    self.privateMessageRooms = privateMessageRooms
    self.subscriptions = subscriptions
    self.bookmarks = bookmarks
    self.roomSettings = roomSettings
    self.alerts = alerts
    self.polling = PollCycle(
      context: context, schedule: PollSchedule(PollSchedule.Intervals(configuration)), pollSignal: pollSignal,
      privateMessageRooms: privateMessageRooms, outbox: outbox)
    self.relayMap = RelayMap(context: context)
    self.statusReports = StatusReporter(context: context, privateMessageRooms: privateMessageRooms)
    self.undo = UndoLog(
      context: context, subscriptions: subscriptions, bookmarks: bookmarks, roomSettings: roomSettings, alerts: alerts)
  }
}
