import AwfulBotTestKit
import ChatBridge
import BotStore
import Foundation

@testable import BotCore

/// A real store (memory or a temp file), the in-process forum, a recording transport and an engine wired together.
struct EngineHarness {
  let clock: EngineTestClock
  let forum: EngineTestForum
  let database: BotDatabase
  let transport: EngineRecordingTransport
  let engine: BotEngine
  let dispatcher: Dispatcher
  let room = RoomRef(transport: "test", room: "!room")

  init(
    database: BotDatabase? = nil, clock: EngineTestClock = EngineTestClock(), forum: EngineTestForum? = nil,
    transport: EngineRecordingTransport = EngineRecordingTransport(),
    configure: (inout EngineConfiguration) -> Void = { _ in }
  ) throws {
    self.clock = clock
    self.forum = forum ?? EngineTestForum(clock: clock)
    self.database = try database ?? BotDatabase()
    self.transport = transport
    var configuration = EngineConfiguration()
    configuration.jitter = 0
    configure(&configuration)
    let clock = clock
    self.engine = BotEngine(
      database: self.database, forum: self.forum, transports: [transport.name: transport.capabilities],
      configuration: configuration, now: { clock.now() })
    self.dispatcher = Dispatcher(engine: engine, transport: transport)
  }

  /// Polls bookmarks and sends what was queued.
  @discardableResult
  func cycle() async -> PollReport {
    let report = await engine.poll(.bookmarks)
    await dispatcher.drain()
    return report
  }

  func rows() async throws -> [OutboxRecord] {
    try await database.read { tx in try tx.allOutboxRows() }
  }

  func texts(room: String = "!room") -> [String] {
    transport.sent(to: room).map(\.message.text)
  }

  /// A fresh database file in a temp directory; the directory is removed by `removeTemporaryDirectory`.
  static func temporaryDatabasePath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-engine-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("bot.sqlite").path
  }

  static func removeTemporaryDirectory(of path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
  }
}
