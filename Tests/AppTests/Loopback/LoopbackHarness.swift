import AwfulBotApp
import AwfulBotEngineTestKit
import AwfulBotForumTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import FakeForum
import ForumsClient
import Foundation
import Logging
import Testing

@testable import BotCore

/// The whole forum side on loopback: the FakeForum emulator (demo seed) and a SQLite file in a temp directory that
/// outlives any one bot, so a test can stop a bot and start another on the same file (a restart).
struct LoopbackWorld {
  static let botUserID = FakeForumSeed.botUserID
  /// The demo seed's three-page thread (95 posts, 40 a page), bookmarked by the bot with its last read at post 50.
  static let devThread = 3_600_001
  /// A demo-seed thread the bot has not bookmarked.
  static let unbookmarkedThread = 3_600_005
  /// A user of the demo seed who is not the bot ("Pickled Tink").
  static let poster = 1002
  static let posterName = "Pickled Tink"

  let server: FakeForumServer
  /// The forum's base URL, ending with `/` as the client wants it.
  let baseURL: URL
  let databasePath: String

  var state: ForumState { server.state }

  /// A bot: a fresh HTTP client whose cookies live in the bot's database (as `BotApplication` wires it), an engine
  /// reading the forum through it on the shared database file, and a dispatcher sending to `transport`.
  func startBot(
    transport: RecordingTransport = RecordingTransport(), logger: Logger = .quiet(),
    configure: (inout EngineConfiguration) -> Void = { _ in },
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws -> LoopbackBot {
    let database = try BotDatabase(path: databasePath)
    let client = ForumsClient(
      configuration: .test(baseURL: baseURL), cookieStore: DatabaseCookieStore(database: database),
      logger: Logger.quiet())
    var configuration = EngineConfiguration()
    configuration.jitter = 0
    configure(&configuration)
    let engine = BotEngine(
      database: database, forum: client,
      transports: [transport.name: transport.capabilities], configuration: configuration,
      logger: logger, now: now)
    return LoopbackBot(
      client: client, database: database, engine: engine,
      dispatcher: Dispatcher(engine: engine, transport: transport, logger: Logger.quiet()), transport: transport)
  }

  /// Adds `count` posts by `poster` to a thread, bodies `"<prefix> <n>"` (n from 1), and returns their ids in order.
  @discardableResult
  func addPosts(_ count: Int, to thread: Int = devThread, prefix: String) async throws -> [Int] {
    var ids: [Int] = []
    for n in 1...count {
      ids.append(try await state.addPost(thread: thread, author: Self.poster, body: "\(prefix) \(n)"))
    }
    return ids
  }

  /// The emulator's log of requests to one path (`/showthread.php`).
  func requests(to path: String) async -> [LoggedRequest] {
    await state.requests().filter { $0.path == path }
  }

  /// The link a relayed post carries: the forum's share link with `noseen=1`.
  /// The link the bot prints for a post: the page that holds it (its index in the emulator → page at 40 a page),
  /// scrolled to it.
  func postLink(thread: Int = devThread, postID: Int) async -> String {
    let index = await state.post(postID)?.index ?? 1
    let page = (index - 1) / 40 + 1
    return "\(baseURL.absoluteString)showthread.php?threadid=\(thread)&perpage=40&pagenumber=\(page)#post\(postID)"
  }
}

/// One running bot of a `LoopbackWorld`. `stop()` is what a clean exit does; dropping it without `stop()` after a
/// cancelled send is what a crash leaves behind.
struct LoopbackBot {
  let client: ForumsClient
  let database: BotDatabase
  let engine: BotEngine
  let dispatcher: Dispatcher
  let transport: RecordingTransport
  let room = RoomRef(transport: "test", room: "!room")

  /// Polls the bookmarks and sends what was queued.
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

  func texts(room: String = "!room") -> [String] {
    transport.sent(to: room).map(\.message.text)
  }

  func rows() async throws -> [OutboxRecord] {
    try await database.read { tx in try tx.allOutboxRows() }
  }

  func bookmarksHealth() async throws -> SourceHealth? {
    try await engine.statusReports.health().sources.first { $0.source == "bookmarks" }
  }

  func stop() async throws {
    try await client.shutdown()
    try database.close()
  }
}

/// Runs `body` with the emulator listening on a free loopback port and a temp directory for the database; both are
/// gone when it returns or throws.
func withLoopbackWorld<T>(_ body: (LoopbackWorld) async throws -> T) async throws -> T {
  let server = try await FakeForumServer(configuration: FakeForumConfiguration(port: 0, seed: .demo))
  let root = try await server.start()
  let directory: TemporaryDirectory
  do {
    directory = try TemporaryDirectory("awfulbot-loopback")
  } catch {
    await server.stop()
    throw error
  }
  defer { directory.remove() }
  let world = LoopbackWorld(
    server: server, baseURL: URL(string: root.absoluteString + "/")!, databasePath: directory.path("bot.sqlite"))
  do {
    let result = try await body(world)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}
