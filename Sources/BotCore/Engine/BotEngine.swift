import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging
import Synchronization

/// The engine: what command handlers call to change what rooms follow, and what the poller and dispatchers share.
///
/// State lives in the database, not here, so several engines on one database file (a restart) see the same
/// subscriptions, cursors and outbox. The engine talks to the forum only through `Forum`.
package final class BotEngine: Sendable {
  package let database: BotDatabase
  package let forum: any Forum
  package let configuration: EngineConfiguration
  package let composer: MessageComposer
  /// Capabilities of each configured transport by name; rows are rendered for the room's transport.
  package let transports: [String: ChatCapabilities]
  let logger: Logger
  let now: @Sendable () -> Date
  let pollSignal = WakeSignal()
  private let dispatchSignals: [String: WakeSignal]
  private let privateMessageRoomList: Mutex<[RoomRef]>

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
    self.composer = MessageComposer(
      baseURL: forum.baseURL, excerptLength: configuration.excerptLength, timeZone: configuration.timeZone)
    self.dispatchSignals = transports.mapValues { _ in WakeSignal() }
    self.privateMessageRoomList = Mutex(configuration.privateMessageRooms)
  }

  /// The rooms told about new private messages: the configured ones, with Matrix aliases resolved once the
  /// application could (`addPrivateMessageRoom`).
  package var privateMessageRooms: [RoomRef] { privateMessageRoomList.withLock { $0 } }

  /// Adds a room to those private messages are told in, once its id is known (at start or later). The first
  /// such room wakes the poller, which then starts reading the inbox.
  package func addPrivateMessageRoom(_ room: RoomRef) {
    let wasEmpty = privateMessageRoomList.withLock { rooms in
      let wasEmpty = rooms.isEmpty
      if !rooms.contains(room) { rooms.append(room) }
      return wasEmpty
    }
    if wasEmpty { pollSignal.signal() }
  }

  /// Whether `room` is one of the rooms private messages are told in.
  package func isPrivateMessageRoom(_ room: RoomRef) -> Bool {
    privateMessageRooms.contains(room)
  }

  /// Asks the poller to poll bookmarks and watched forums now (after a command changed what is watched).
  /// Sources in backoff after errors keep their backoff.
  package func requestPoll() {
    pollSignal.signal()
  }

  /// The signal the transport's dispatcher waits on.
  func dispatchSignal(for transport: String) -> WakeSignal? {
    dispatchSignals[transport]
  }

  /// Wakes the dispatchers of these transports (rows were queued).
  func wakeDispatchers<S: Sequence>(_ transportNames: S) where S.Element == String {
    for name in Set(transportNames) { dispatchSignals[name]?.signal() }
  }

  func capabilities(of room: RoomRef) throws -> ChatCapabilities {
    guard let capabilities = transports[room.transport] else { throw EngineError.unknownTransport(room.transport) }
    return capabilities
  }

  var calendar: Calendar { configuration.calendar }

  // MARK: Record conversion

  static func subscription(from record: SubscriptionRecord) -> Subscription? {
    guard let id = record.id else { return nil }
    let target = SubscriptionTarget(kind: record.kind, argument: record.argument)
    return Subscription(
      id: id, room: RoomRef(transport: record.transport, room: record.room), target: target,
      filters: SubscriptionFilters(
        includeAuthors: record.includeAuthors, excludeAuthors: record.excludeAuthors, keywords: record.keywords,
        opOnly: record.opOnly),
      createdAt: record.createdAt, createdBy: record.createdBy)
  }

  static func settings(from record: RoomRecord?, defaultReplayCap: Int) -> RoomSettings {
    guard let record else { return RoomSettings(replayCap: defaultReplayCap) }
    let mode: RelayMode =
      switch record.mode {
      case .summary: .summary(threshold: record.summaryThreshold ?? RelayMode.defaultSummaryThreshold)
      case .digest: .digest(record.digestSchedule.flatMap(DigestSchedule.init(storeValue:)) ?? .hourly)
      case .each: .each
      }
    return RoomSettings(
      mode: mode, quietHours: record.quietHours.flatMap(QuietHours.init(parsingDaily:)),
      quietUntil: record.quietUntil, unfurl: record.unfurl, replayCap: record.replayCap, isPaused: record.isPaused)
  }

  static func apply(_ mode: RelayMode, to record: inout RoomRecord) {
    switch mode {
    case .each:
      record.mode = .each
    case .summary(let threshold):
      record.mode = .summary
      record.summaryThreshold = threshold
    case .digest(let schedule):
      record.mode = .digest
      record.digestSchedule = schedule.storeValue
    }
  }
}
