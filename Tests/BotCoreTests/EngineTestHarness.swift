import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import Foundation
import Logging

@testable import BotCore

/// A real store (memory or a temp file), the in-process forum, a recording transport and an engine wired together.
struct EngineHarness {
  let clock: TestClock
  let forum: TestForum
  let database: BotDatabase
  let transport: RecordingTransport
  let engine: BotEngine
  let dispatcher: Dispatcher
  let room = RoomRef(transport: "test", room: "!room")

  init(
    database: BotDatabase? = nil, clock: TestClock = TestClock(), forum: TestForum? = nil,
    transport: RecordingTransport = RecordingTransport(), logger: Logger = Logger(label: "awfulbot.engine"),
    configure: (inout EngineConfiguration) -> Void = { _ in }
  ) throws {
    self.clock = clock
    self.forum = forum ?? TestForum(clock: clock)
    self.database = try database ?? BotDatabase()
    self.transport = transport
    var configuration = EngineConfiguration()
    configuration.jitter = 0
    configure(&configuration)
    let clock = clock
    self.engine = BotEngine(
      database: self.database, forum: self.forum, transports: [transport.name: transport.capabilities],
      configuration: configuration, logger: logger, now: { clock.now() })
    self.dispatcher = Dispatcher(engine: engine, transport: transport)
  }

  /// Polls bookmarks and sends what was queued.
  @discardableResult
  func cycle() async -> PollReport {
    let report = await engine.polling.poll(.bookmarks)
    await dispatcher.drain()
    return report
  }

  /// The full sweep in progress, to its end, draining the outbox after each step.
  @discardableResult
  func sweep() async -> [PollReport] {
    await engine.polling.sweepToEnd { await dispatcher.drain() }
  }

  func rows() async throws -> [OutboxRecord] {
    try await database.read { tx in try tx.allOutboxRows() }
  }

  func texts(room: String = "!room") -> [String] {
    transport.sent(to: room).map(\.message.text)
  }

  /// A fresh database file in a temp directory; the directory is removed by `removeTemporaryDirectory`.
  static func temporaryDatabasePath() throws -> String {
    try TemporaryDirectory("awfulbot-engine").path("bot.sqlite")
  }

  static func removeTemporaryDirectory(of path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
  }
}
