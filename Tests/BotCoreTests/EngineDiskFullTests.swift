import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Synchronization
import Testing

@testable import BotCore

/// A full disk (issue 27): a real SQLite file capped with `PRAGMA max_page_count`, as a full filesystem refuses
/// growing writes with SQLITE_FULL. Nothing is lost or repeated, the log says it once, commands that only read are
/// still answered, and the bot picks up by itself once the cap is lifted.
@Suite("Engine on a full disk")
struct EngineDiskFullTests {
  static let room = RoomRef(transport: "test", room: "!room")
  static let fullMessage =
    "database disk is full: nothing new is saved; new posts wait on the forum until space is freed"
  static let roomMessage = "database disk has room again: polling and saving resume"

  /// An engine over a database file, with its dispatcher, logging into `log`.
  struct Bot {
    let clock = TestClock()
    let forum: TestForum
    let database: BotDatabase
    let transport: RecordingTransport
    let engine: BotEngine
    let dispatcher: Dispatcher

    init(path: String, transport: RecordingTransport = RecordingTransport(), log: LogCapture) throws {
      forum = TestForum(clock: clock)
      database = try BotDatabase(path: path)
      self.transport = transport
      var configuration = EngineConfiguration()
      configuration.jitter = 0
      // Every post one by one however many wait after the outage, so the test can name each.
      configuration.replayCap = 1000
      configuration.backlogLimit = 10_000
      let clock = clock
      engine = BotEngine(
        database: database, forum: forum, transports: [transport.name: transport.capabilities],
        configuration: configuration, logger: .capturing(into: log), now: { clock.now() },
        answerOnFullDisk: ChatEventService.directDelivery(via: transport))
      dispatcher = Dispatcher(engine: engine, transport: transport, logger: .capturing(into: log))
    }

    /// Every post of `threadID` up to its stored cursor that is past `after` has an outbox row for the room.
    func cursorIsBehindRows(threadID: String, after seeded: Int) async throws -> Bool {
      let (cursor, queued) = try await database.read { tx in
        (
          try tx.thread(id: threadID)?.cursorIndex ?? 0,
          Set(try tx.allOutboxRows().compactMap(\.postID))
        )
      }
      let covered = forum.thread(threadID)?.posts.filter { $0.index > seeded && $0.index <= cursor } ?? []
      return covered.allSatisfy { queued.contains($0.id) }
    }
  }

  /// The markers ("m12") of the relays the transport showed, in order.
  static func markers(_ transport: RecordingTransport) -> [String] {
    transport.sent(to: room.room).compactMap { sent in
      sent.message.text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("m") && Int($0.dropFirst()) != nil }
        .map(String.init)
    }
  }

  /// No cursor runs ahead of its rows at any point, and the log says it once each way.
  @Test("posts arriving while the disk fills are relayed once each, in order, once space returns")
  func fullDiskMidRun() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let log = LogCapture()
    let bot = try Bot(path: path, log: log)
    bot.forum.addThread("1", posts: 1)
    bot.forum.addThread("2", posts: 1)
    try await bot.engine.subscriptions.subscribe(room: Self.room, to: .bookmarks)
    await bot.engine.polling.poll(.bookmarks)
    await bot.dispatcher.drain()

    try bot.database.limitGrowth()
    var expected: [String] = []
    var fullPolls = 0
    var marker = 0
    for _ in 0..<60 where fullPolls < 3 {
      for threadID in ["1", "2", "1"] {
        marker += 1
        bot.clock.advance(by: 60)
        bot.forum.addPost(
          to: threadID, author: "poster", text: "m\(marker) " + String(repeating: "words ", count: 300))
        expected.append("m\(marker)")
      }
      bot.forum.resetRequests()
      let report = await bot.engine.polling.poll(.bookmarks)
      if report.storageFull {
        fullPolls += 1
        if fullPolls > 1 {
          // Known full: the poll waits for space without asking the forum for posts it could not save.
          #expect(report.requests == 0 && bot.forum.requests.isEmpty, "\(bot.forum.requests)")
        }
      }
      await bot.dispatcher.drain()
      for threadID in ["1", "2"] {
        #expect(try await bot.cursorIsBehindRows(threadID: threadID, after: 1), "thread \(threadID)")
      }
    }
    #expect(fullPolls == 3, "the capped database never refused the relay")
    #expect(bot.database.storage.fullSince != nil)
    let health = try #require(try await bot.engine.statusReports.health().sources.first { $0.source == "bookmarks" })
    #expect(health.lastError == BotStoreError.storageFull.description)
    // Waiting for space costs the forum nothing, so the wait does not grow as a forum failure's backoff does.
    let wait = try #require(health.nextAttempt).timeIntervalSince(bot.clock.now())
    #expect(wait == EngineConfiguration().pollBackoffBase.timeInterval)

    try bot.database.removeGrowthLimit()
    let recovered = await bot.engine.polling.poll(.bookmarks)
    #expect(recovered.succeeded, "\(recovered.error ?? "")")
    await bot.dispatcher.drain()
    #expect(bot.database.storage.fullSince == nil)

    #expect(Self.markers(bot.transport) == expected)
    let pending = try await bot.database.read { tx in try tx.outboxCounts().pending }
    #expect(pending == 0)
    for threadID in ["1", "2"] {
      let cursor = try await bot.database.read { tx in try tx.thread(id: threadID)?.cursorIndex }
      #expect(cursor == bot.forum.thread(threadID)?.posts.count)
    }
    let loud = log.entries.filter { $0.level >= .notice }.map(\.message)
    #expect(loud == [Self.fullMessage, Self.roomMessage])
  }

  /// A chat service that takes every message and answers with a long receipt (so marking the row needs a new page),
  /// running `onSend` first.
  final class LongReceiptService: ChatTransport, Sendable {
    let name = "test"
    let capabilities = ChatCapabilities.plainText
    let events = AsyncStream<ChatEvent> { $0.finish() }
    let onSend: @Sendable () throws -> Void

    init(onSend: @escaping @Sendable () throws -> Void) { self.onSend = onSend }

    func run() async throws {}

    func send(_ message: OutgoingMessage, to room: String, idempotencyKey: String) async throws -> DeliveryReceipt {
      try onSend()
      return DeliveryReceipt(id: idempotencyKey + String(repeating: "r", count: 3000))
    }
  }

  @Test("a message the service took is not sent again when the disk is too full to mark it sent")
  func markFailsAfterSend() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let log = LogCapture()
    let database = Mutex<BotDatabase?>(nil)
    let capped = Mutex(false)
    // The disk fills up while the first message is on its way.
    let service = LongReceiptService {
      guard !capped.withLock({ $0 }), let database = database.withLock({ $0 }) else { return }
      capped.withLock { $0 = true }
      try database.limitGrowth()
    }
    let bot = try Bot(path: path, transport: RecordingTransport(forwardingTo: service), log: log)
    database.withLock { $0 = bot.database }
    bot.forum.addThread("1", posts: 1)
    try await bot.engine.subscriptions.subscribe(room: Self.room, to: .bookmarks)
    await bot.engine.polling.poll(.bookmarks)
    for marker in 1...3 {
      bot.clock.advance(by: 60)
      bot.forum.addPost(to: "1", author: "poster", text: "m\(marker) hello")
    }
    #expect(await bot.engine.polling.poll(.bookmarks).queued == 3)

    let first = await bot.dispatcher.drain()
    #expect(first.delivered == 0)
    // m2 went out while m1's mark was being written (the room queue overlaps the two); then the room stopped.
    #expect(Self.markers(bot.transport) == ["m1", "m2"])
    #expect(bot.database.storage.fullSince != nil)
    // The next pass writes the marks again (still refused) and sends nothing: on IRC a resend would show them twice.
    let second = await bot.dispatcher.drain()
    #expect(second.delivered == 0 && second.nextRetry != nil)
    #expect(Self.markers(bot.transport) == ["m1", "m2"])

    try bot.database.removeGrowthLimit()
    let third = await bot.dispatcher.drain()
    #expect(third.delivered == 3)
    #expect(Self.markers(bot.transport) == ["m1", "m2", "m3"])
    let counts = try await bot.database.read { tx in try tx.outboxCounts() }
    #expect(counts.pending == 0 && counts.delivered == 3)
    // The refused marks are not one warning each; the one line is the disk's.
    let loud = log.entries.filter { $0.level >= .notice }.map(\.message)
    #expect(loud == [Self.fullMessage])
  }

  @Test("on a full disk, help, status and the subscription list are answered; a change is refused naming the disk")
  func commandsOnFullDisk() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let log = LogCapture()
    let bot = try Bot(path: path, log: log)
    bot.forum.addThread("1", posts: 1)
    try await bot.engine.subscriptions.subscribe(room: Self.room, to: .bookmarks)
    let router = CommandRouter(
      parser: CommandParser(prefix: "!", botNames: ["awfulbot"]),
      permissions: SharedPermissions(PermissionPolicy(grants: [:])), forum: bot.forum, engine: bot.engine,
      composer: bot.engine.composer, logger: .capturing(into: log), now: { bot.clock.now() })

    // The file may not grow and the alerts' pages are full: one more alert needs a page the disk does not have.
    try bot.database.limitGrowth()
    let elsewhere = RoomRef(transport: Self.room.transport, room: "!elsewhere")
    for index in 0..<100_000 where bot.database.storage.fullSince == nil {
      let username = "filler\(index)" + String(repeating: "f", count: 100)
      _ = try? await bot.engine.alerts.addAlert(room: elsewhere, username: username)
    }
    #expect(bot.database.storage.fullSince != nil)

    var answers: [String] = []
    for (index, text) in ["!help", "!subscriptions", "!status", "!alert Lowtax"].enumerated() {
      let message = IncomingMessage(
        transport: Self.room.transport, room: Self.room.room, senderID: "@alice:example.org", senderName: "alice",
        text: text, messageID: "$command-\(index)", transportRole: .admin)
      let reply = try #require(await router.handle(message, capabilities: .plainText))
      // As the app delivers answers: into the outbox, or straight out while the outbox cannot take them.
      try await bot.engine.outbox.enqueueReply(reply, answering: message)
      await bot.dispatcher.drain()
      let sent = bot.transport.sent(to: Self.room.room)
      #expect(sent.count == index + 1, "\(text)")
      answers.append(sent.last?.message.text ?? "")
    }
    #expect(answers[0].contains("help, bookmarks, subscriptions"))
    #expect(answers[1].contains("All bookmarked threads") || answers[1].lowercased().contains("bookmark"))
    #expect(answers[2].contains("Disk full since"))
    #expect(answers[3].hasPrefix("The bot's disk is full, so it cannot save that"))
    #expect(try await bot.engine.alerts.alerts(room: Self.room).isEmpty)
    let loud = log.entries.filter { $0.level >= .notice }.map(\.message)
    #expect(loud == [Self.fullMessage])
  }
}
