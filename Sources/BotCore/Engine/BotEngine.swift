import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// The engine: what command handlers call to change what rooms follow, and what the poller and dispatchers share.
///
/// A facade: it creates the parts that do the work, each with one job and the handles it needs, and passes each
/// call on to one of them:
/// - `SubscriptionBook` (what rooms follow, with `SubscriptionBackfill`) and `ForumBookmarks`;
/// - `RoomSettingsBook` and `AlertBook` (how each room is told);
/// - `PollCycle` (one poll of one source, through `BookmarksPoll`, `AnnouncementsPoll`, `ForumPoll` and
///   `PrivateMessagesPoll`);
/// - `OutboxWriter` (rows in, dispatchers woken, held items released, command answers queued);
/// - `StatusReporter` (`health`, `status`, `why`) and `UndoLog`.
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
  let pollSignal: WakeSignal
  /// The poll intervals, which a reloaded config may change (`updatePollIntervals`).
  package let pollSchedule: PollSchedule

  private let outbox: OutboxWriter
  private let privateMessageRoomList: PrivateMessageRooms
  private let subscriptionBook: SubscriptionBook
  private let forumBookmarks: ForumBookmarks
  private let roomSettings: RoomSettingsBook
  private let alertBook: AlertBook
  private let pollCycle: PollCycle
  private let statusReporter: StatusReporter
  private let undoLog: UndoLog
  private let relayMap: RelayMap

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
    self.pollSignal = pollSignal
    let pollSchedule = PollSchedule(PollSchedule.Intervals(configuration))
    self.pollSchedule = pollSchedule
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
    self.privateMessageRoomList = privateMessageRooms
    self.subscriptionBook = subscriptions
    self.forumBookmarks = bookmarks
    self.roomSettings = roomSettings
    self.alertBook = alerts
    self.pollCycle = PollCycle(
      database: database, forum: forum, configuration: configuration, schedule: pollSchedule, composer: composer,
      transports: transports, privateMessageRooms: privateMessageRooms, outbox: outbox, logger: logger, now: now)
    self.relayMap = RelayMap(database: database, now: now)
    self.statusReporter = StatusReporter(
      database: database, forum: forum, configuration: configuration, privateMessageRooms: privateMessageRooms,
      now: now)
    self.undoLog = UndoLog(
      database: database, configuration: configuration, now: now, subscriptions: subscriptions, bookmarks: bookmarks,
      roomSettings: roomSettings, alerts: alerts)
  }

  // MARK: Private-message rooms and wake-ups

  /// The rooms told about new private messages: the configured ones, with Matrix aliases resolved once the
  /// application could (`addPrivateMessageRoom`).
  package var privateMessageRooms: [RoomRef] { privateMessageRoomList.all }

  /// Adds a room to those private messages are told in, once its id is known (at start or later). The first
  /// such room wakes the poller, which then starts reading the inbox.
  package func addPrivateMessageRoom(_ room: RoomRef) {
    privateMessageRoomList.add(room)
  }

  /// Stops telling `room` about private messages (a reloaded config no longer names it).
  @discardableResult
  package func removePrivateMessageRoom(_ room: RoomRef) -> Bool {
    privateMessageRoomList.remove(room)
  }

  /// Whether `room` is one of the rooms private messages are told in.
  package func isPrivateMessageRoom(_ room: RoomRef) -> Bool {
    privateMessageRoomList.contains(room)
  }

  /// Asks the poller to poll bookmarks and watched forums now (after a command changed what is watched).
  /// Sources in backoff after errors keep their backoff.
  package func requestPoll() {
    pollSignal.signal()
  }

  /// Applies new poll intervals (a reloaded config) from the next cycle on, and wakes the poller so that a source
  /// due later than its new interval allows is brought forward. Returns the intervals replaced.
  @discardableResult
  package func updatePollIntervals(_ intervals: PollSchedule.Intervals) -> PollSchedule.Intervals {
    let previous = pollSchedule.replace(with: intervals)
    if previous != intervals { pollSignal.signal() }
    return previous
  }

  /// The signal the transport's dispatcher waits on.
  func dispatchSignal(for transport: String) -> WakeSignal? {
    outbox.dispatchSignal(for: transport)
  }

  /// Whether the inbox's first contents were recorded (without alerts), so a message sent now is told.
  package func isInboxSeeded() async throws -> Bool {
    try await database.read { tx in try tx.seedScheme(source: PollSource.privateMessages.name) != nil }
  }

  // MARK: Polling (`PollCycle`)

  /// Polls one source now: reads the forum, relays what is new, and records the outcome in the source's health
  /// (with the backoff after an error). Never throws: an error is an error for this poll — logged, counted and
  /// visible in `health()` — and never read as "nothing new".
  @discardableResult
  package func poll(_ source: PollSource) async -> PollReport {
    await pollCycle.poll(source)
  }

  /// One step of the bookmarks' full sweep in progress, which the poller takes when nothing is due; nil when no
  /// sweep is in progress (see `BookmarksPoll.sweepStep`).
  @discardableResult
  package func sweepBookmarks() async -> PollReport? {
    await pollCycle.sweepBookmarks()
  }

  /// Every source the poller should run: bookmarks, announcements while some room follows them, each forum some
  /// room follows, and the private-message inbox while rooms are configured for it.
  package func pollSources() async throws -> [PollSource] {
    try await pollCycle.sources()
  }

  /// How long after a successful poll the source is due again (before jitter).
  func interval(for source: PollSource) -> Duration {
    pollCycle.interval(for: source)
  }

  // MARK: Outbox (`OutboxWriter`)

  /// Releases held items that are due (quiet hours over, digest time reached). Returns rows queued.
  @discardableResult
  package func releaseHeld() async throws -> Int {
    try await outbox.releaseHeld()
  }

  /// Queues a command's answer in the outbox, so it is retried (and counted when it fails) like a relayed post,
  /// and sent in order with the room's other messages. Several answers to one message each get their own `answer`
  /// number, and so their own idempotency key.
  package func enqueueReply(_ reply: OutgoingMessage, answering message: IncomingMessage, answer: Int = 1)
    async throws
  {
    try await outbox.enqueueReply(reply, answering: message, answer: answer)
  }

  /// Lets command answers go straight through `transport` while the disk is full and the outbox cannot take them
  /// (each `Dispatcher` lends its transport when it is made).
  func answerDirectly(via transport: any ChatTransport) {
    outbox.answerDirectly(via: transport)
  }

  // MARK: Subscriptions and watches (`SubscriptionBook`)

  /// Subscribes a room (`.thread` is the same as `watch`); nothing already posted is sent except `backfill` items.
  /// Subscribing again to the same target replaces its filters.
  @discardableResult
  package func subscribe(
    room: RoomRef, to target: SubscriptionTarget, filters: SubscriptionFilters = .none, backfill: Int = 0,
    createdBy: String? = nil
  ) async throws -> SubscribeResult {
    try await subscriptionBook.subscribe(
      room: room, to: target, filters: filters, backfill: backfill, createdBy: createdBy)
  }

  /// Removes the room's subscription to `target`. Returns it, or nil when the room had none.
  @discardableResult
  package func unsubscribe(room: RoomRef, from target: SubscriptionTarget) async throws -> Subscription? {
    try await subscriptionBook.unsubscribe(room: room, from: target)
  }

  /// Removes a subscription by id, only if it belongs to `room`. Returns it, or nil when there was none.
  @discardableResult
  package func unsubscribe(room: RoomRef, id: Int64) async throws -> Subscription? {
    try await subscriptionBook.unsubscribe(room: room, id: id)
  }

  /// The room's subscriptions, oldest first.
  package func subscriptions(room: RoomRef) async throws -> [Subscription] {
    try await subscriptionBook.subscriptions(room: room)
  }

  /// Every subscription of every room.
  package func allSubscriptions() async throws -> [Subscription] {
    try await subscriptionBook.allSubscriptions()
  }

  /// Watches one thread in a room, bookmarking it on the forum when it is not bookmarked yet.
  @discardableResult
  package func watch(
    threadID: String, room: RoomRef, filters: SubscriptionFilters = .none, backfill: Int = 0,
    createdBy: String? = nil, mayAddBookmark: Bool = true
  ) async throws -> SubscribeResult {
    try await subscriptionBook.watch(
      threadID: threadID, room: room, filters: filters, backfill: backfill, createdBy: createdBy,
      mayAddBookmark: mayAddBookmark)
  }

  /// Stops watching a thread in a room (and removes the bookmark the bot added when no room watches it any more).
  /// Returns nil when the room was not watching it.
  @discardableResult
  package func unwatch(threadID: String, room: RoomRef) async throws -> UnwatchResult? {
    try await subscriptionBook.unwatch(threadID: threadID, room: room)
  }

  /// The rooms that watch one thread.
  package func roomsWatching(threadID: String) async throws -> [RoomRef] {
    try await subscriptionBook.roomsWatching(threadID: threadID)
  }

  // MARK: Bookmarks (`ForumBookmarks`)

  /// Bookmarks a thread on the forum (optionally with a star colour) and notes it in the store.
  /// Returns whether it was already bookmarked (as far as the bot knows) and its previous star, for undo.
  @discardableResult
  package func bookmark(threadID: String, star: StarColor? = nil) async throws -> (
    wasBookmarked: Bool, previousStar: StarColor?
  ) {
    try await forumBookmarks.bookmark(threadID: threadID, star: star)
  }

  /// Removes a thread's bookmark on the forum. Returns the star it had (as far as the bot knows), for undo.
  @discardableResult
  package func unbookmark(threadID: String) async throws -> StarColor? {
    try await forumBookmarks.unbookmark(threadID: threadID)
  }

  // MARK: Room settings (`RoomSettingsBook`)

  /// The room's settings (defaults when the room has never been configured).
  package func settings(room: RoomRef) async throws -> RoomSettings {
    try await roomSettings.settings(room: room)
  }

  /// Sets how the room receives posts. Returns the previous mode (for undo).
  @discardableResult
  package func setMode(room: RoomRef, to mode: RelayMode) async throws -> RelayMode {
    try await roomSettings.setMode(room: room, to: mode)
  }

  /// Sets quiet hours: `.daily` replaces the daily window, `.until` starts a one-off quiet period, nil turns both
  /// off. Returns the previous (daily, until) pair, for undo.
  @discardableResult
  package func setQuiet(room: RoomRef, to quiet: QuietHours?) async throws -> (daily: QuietHours?, until: Date?) {
    try await roomSettings.setQuiet(room: room, to: quiet)
  }

  /// Restores both quiet settings exactly (undo).
  package func restoreQuiet(room: RoomRef, daily: QuietHours?, until: Date?) async throws {
    try await roomSettings.restoreQuiet(room: room, daily: daily, until: until)
  }

  /// Sets who may post to the forum from the room by answering relays. Returns the previous setting.
  @discardableResult
  package func setReplies(room: RoomRef, to permission: ReplyPermission) async throws -> ReplyPermission {
    try await roomSettings.setReplies(room: room, to: permission)
  }

  /// Turns reactions as commands on or off in the room. Returns the previous value.
  @discardableResult
  package func setReactions(room: RoomRef, to enabled: Bool) async throws -> Bool {
    try await roomSettings.setReactions(room: room, to: enabled)
  }

  /// Turns link unfurling on or off for the room. Returns the previous value.
  @discardableResult
  package func setUnfurl(room: RoomRef, to enabled: Bool) async throws -> Bool {
    try await roomSettings.setUnfurl(room: room, to: enabled)
  }

  /// Sets how many posts of one thread the room gets one by one per cycle before a summary line.
  @discardableResult
  package func setReplayCap(room: RoomRef, to cap: Int) async throws -> Int {
    try await roomSettings.setReplayCap(room: room, to: cap)
  }

  /// Pauses or resumes the room: a paused room holds everything, released as a digest on resume.
  @discardableResult
  package func setPaused(room: RoomRef, to paused: Bool) async throws -> Bool {
    try await roomSettings.setPaused(room: room, to: paused)
  }

  // MARK: Alerts (`AlertBook`)

  /// Registers a forum username for quote and mention alerts in the room. Returns false when already registered.
  @discardableResult
  package func addAlert(room: RoomRef, username: String, createdBy: String? = nil) async throws -> Bool {
    try await alertBook.addAlert(room: room, username: username, createdBy: createdBy)
  }

  /// Removes an alert registration. Returns false when there was none.
  @discardableResult
  package func removeAlert(room: RoomRef, username: String) async throws -> Bool {
    try await alertBook.removeAlert(room: room, username: username)
  }

  /// Usernames the room gets alerts for, alphabetically.
  package func alerts(room: RoomRef) async throws -> [String] {
    try await alertBook.alerts(room: room)
  }

  // MARK: Status (`StatusReporter`)

  /// Health of every poll source and of the outbox (depth per room, dead letters, failures, held items).
  package func health() async throws -> EngineHealth {
    try await statusReporter.health()
  }

  /// Everything `status` shows for one room: settings, subscriptions, alerts, its outbox and the poll sources.
  package func status(room: RoomRef) async throws -> RoomStatus {
    try await statusReporter.status(room: room)
  }

  /// Why a post reached the room or not.
  package func why(postID: String, room: RoomRef) async throws -> WhyAnswer {
    try await statusReporter.why(postID: postID, room: room)
  }

  // MARK: Undo (`UndoLog`)

  /// Records how to revert a user's change in a room; `undo` within the window (10 minutes) runs it.
  package func recordUndo(room: RoomRef, userID: String, summary: String, actions: [UndoAction]) async throws {
    try await undoLog.record(room: room, userID: userID, summary: summary, actions: actions)
  }

  /// Takes (removes and returns) the user's latest undo entry in the room if it is still within the window.
  package func takeUndo(room: RoomRef, userID: String) async throws -> UndoEntry? {
    try await undoLog.take(room: room, userID: userID)
  }

  /// Runs an undo entry's actions in order against the forum and the store.
  package func revert(_ entry: UndoEntry) async throws {
    try await undoLog.revert(entry)
  }

  // MARK: Answering relays

  /// The bot's message the chat service calls `messageID` in the room (the last 30 days).
  package func relayedMessage(room: RoomRef, messageID: String) async throws -> RelayedMessage? {
    try await relayMap.message(room: room, messageID: messageID)
  }

  /// The relay carrying `reference` (`r7`) in the room (the last 30 days).
  package func relayedMessage(room: RoomRef, reference: String) async throws -> RelayedMessage? {
    try await relayMap.message(room: room, reference: reference)
  }

  /// The room's last relay that carries a reference.
  package func lastReferencedRelay(room: RoomRef) async throws -> RelayedMessage? {
    try await relayMap.lastReferenced(room: room)
  }

  /// The chat service's id of the first answer to the command message `messageID`, once sent.
  package func answerReceipt(room: RoomRef, answering messageID: String) async throws -> String? {
    try await relayMap.answerReceipt(room: room, answering: messageID)
  }

  package func notePostedFromChat(room: RoomRef, postID: String) async throws {
    try await relayMap.notePostedFromChat(room: room, postID: postID)
  }
}
