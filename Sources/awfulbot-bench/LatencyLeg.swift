import ArgumentParser
import AwfulBotApp
import BotCore
import BotStore
import FakeForum
import ForumModel
import Foundation
import Logging
import Synchronization

/// One schedule's side of `latency`: an emulator of its own with `bookmarks` bookmarked threads, and the whole bot
/// (`BotApplication` as `run` wires it: the poller, the dispatcher, the forum client with its request spacing)
/// relaying into a `LatencyTransport`. Each leg has its own emulator, so each counts only its own requests.
final class LatencyLeg: Sendable {
  let label: String
  let server: FakeForumServer
  let application: BotApplication
  let transport: LatencyTransport
  private let threadIDs: [Int]
  private let poster: Int
  private let directory: URL
  private let running = Mutex<Task<Void, any Error>?>(nil)
  /// Post ids in posting order, with when each was made.
  private let posts = Mutex<[(id: Int, at: ContinuousClock.Instant)]>([])

  init(
    label: String, bookmarks: Int, polling: AppConfiguration.PollingSettings, spacing: Double,
    pollStarted: (@Sendable (_ source: PollSource, _ late: TimeInterval) -> Void)? = nil
  ) async throws {
    self.label = label
    let server = try await FakeForumServer(
      configuration: FakeForumConfiguration(port: 0, seed: .empty, requestLogLimit: 1_000_000))
    let baseURL = try await server.start()
    let state = server.state
    poster = try await state.addUser(name: "Bench Poster", password: "bench")
    let group = try await state.addGroup(title: "Main")
    let forumID = try await state.addForum(title: "Benchmarks", parent: group)
    threadIDs = try await state.addGeneratedThreads(
      count: bookmarks, forum: forumID, author: poster, postsPerThread: 25, bookmarkedBy: FakeForumSeed.botUserID)
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-bench-latency-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let configuration = AppConfiguration(
      forum: .init(
        baseURL: URL(string: baseURL.absoluteString + "/"), username: FakeForumSeed.botUsername,
        password: SecretValue(literal: FakeForumSeed.botPassword), timeZone: TimeZone(identifier: "America/Chicago"),
        requestSpacingSeconds: spacing),
      dataDirectory: directory.path, polling: polling,
      transports: [.console(name: "bench")],
      rooms: [.init(transport: "bench", room: "bench", subscriptions: [.bookmarks(stars: [])])],
      metrics: MetricsSettings(enabled: false))
    let transport = LatencyTransport()
    self.transport = transport
    self.server = server
    application = try BotApplication(
      configuration: configuration, transports: [transport], logger: Logger(label: "awfulbot-bench.\(label)"),
      environment: [:], pollStarted: pollStarted)
  }

  /// Starts the bot and returns once its first poll (a full sweep: every thread seen for the first time) is done.
  func start() async throws {
    try await application.seedRooms()
    let application = application
    running.withLock { $0 = Task { try await application.run(signals: []) } }
    let deadline = ContinuousClock.now + .seconds(600)
    while ContinuousClock.now < deadline {
      let health = try await application.engine.statusReports.health()
      if health.sources.contains(where: { $0.source == "bookmarks" && $0.lastSuccess != nil }) {
        await server.state.clearRequests()
        return
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw ValidationError("\(label): the first bookmarks poll did not finish within 10 minutes")
  }

  /// Waits until a full sweep of the bookmarks has ended since the start: an account longer than one poll may read
  /// (8,000 bookmarks) is only known whole once the sweep that follows the first poll has read the rest.
  func waitForWholeList(within limit: Duration) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      let swept = try await application.database.read { tx in
        try tx.listMark(list: PollSource.bookmarks.name)?.lastFullSweep != nil
      }
      if swept {
        await server.state.clearRequests()
        return
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw ValidationError("\(label): the first full sweep did not end within \(limit)")
  }

  /// Adds a post to bookmarked thread number `thread` and notes when.
  func post(thread: Int, text: String) async throws {
    let at = ContinuousClock.now
    let id = try await server.state.addPost(thread: threadIDs[thread], author: poster, body: text)
    posts.withLock { $0.append((id, at)) }
  }

  /// The bookmarks pages asked for since `start` returned, by page number, in order.
  func bookmarksPagesRequested() async -> [Int] {
    await server.state.requests().filter { $0.path == "/bookmarkthreads.php" }.map { request in
      request.query.first { $0.name == "pagenumber" }.flatMap { Int($0.value) } ?? 1
    }
  }

  /// The forum requests since `start` returned: bookmarks pages and thread pages.
  func requestCounts() async -> (bookmarks: Int, threads: Int, all: Int) {
    let requests = await server.state.requests()
    return (
      requests.filter { $0.path == "/bookmarkthreads.php" }.count,
      requests.filter { $0.path == "/showthread.php" }.count, requests.count
    )
  }

  /// Waits until every post was relayed or `limit` passes.
  func waitForRelays(within limit: Duration) async throws {
    let deadline = ContinuousClock.now + limit
    let wanted = Set(posts.withLock { $0.map(\.id) })
    while ContinuousClock.now < deadline {
      if wanted.isSubset(of: Set(transport.relayed.map(\.postID))) { return }
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  /// Each post's latency from being made to its relay reaching the chat side (nil: never relayed), in posting
  /// order, and whether the relays came in posting order.
  func latencies() -> (latencies: [Duration?], inOrder: Bool) {
    let relayed = transport.relayed
    var arrival: [Int: ContinuousClock.Instant] = [:]
    for relay in relayed where arrival[relay.postID] == nil { arrival[relay.postID] = relay.at }
    let made = posts.withLock { $0 }
    // Post ids grow with time on the forum, so relays in posting order come in increasing id order, each once.
    let ids = relayed.map(\.postID)
    let inOrder = ids == ids.sorted() && Set(ids).count == ids.count
    return (made.map { post in arrival[post.id].map { $0 - post.at } }, inOrder)
  }

  /// Shuts the bot down (the forum client with it) and the emulator.
  func stop() async {
    let task = running.withLock { $0 }
    task?.cancel()
    _ = try? await task?.value
    await server.stop()
    try? FileManager.default.removeItem(at: directory)
  }
}
