import ArgumentParser
import AwfulBotApp
import BotCore
import BotStore
import ChatBridge
import FakeForum
import ForumModel
import ForumsClient
import Foundation

/// The request counts of single cycles on a large account, for `latency`: after the first full sweep, a quiet check
/// and a check after `changed` threads got a post. No spacing between requests (counts do not depend on it).
struct CycleCostRun {
  var bookmarks: Int
  var changed: Int

  struct Result {
    var seedPages: Int
    var quietRequests: Int
    var changedBookmarksPages: Int
    var changedThreadPages: Int
    var newPosts: Int
  }

  func run() async throws -> Result {
    let server = try await FakeForumServer(
      configuration: FakeForumConfiguration(port: 0, seed: .empty, requestLogLimit: 1_000_000))
    let baseURL = try await server.start()
    let state = server.state
    let poster = try await state.addUser(name: "Bench Poster", password: "bench")
    let group = try await state.addGroup(title: "Main")
    let forumID = try await state.addForum(title: "Benchmarks", parent: group)
    let threads = try await state.addGeneratedThreads(
      count: bookmarks, forum: forumID, author: poster, postsPerThread: 25, bookmarkedBy: FakeForumSeed.botUserID)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-bench-cycles-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let database = try BotDatabase(path: directory.appendingPathComponent("bench.sqlite").path)
    let client = ForumsClient(
      configuration: ForumsClientConfiguration(
        baseURL: URL(string: baseURL.absoluteString + "/")!,
        credentials: ForumCredentials(username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword),
        minimumRequestSpacing: .zero))
    var configuration = EngineConfiguration()
    configuration.maximumBookmarkPages = bookmarks / forumPageSize + 2
    let transport = NullTransport()
    let engine = BotEngine(
      database: database, forum: client,
      transports: [transport.name: transport.capabilities], configuration: configuration)
    do {
      let result = try await measure(engine: engine, state: state, threads: threads, poster: poster, room: transport)
      try await client.shutdown()
      await server.stop()
      try? FileManager.default.removeItem(at: directory)
      return result
    } catch {
      try? await client.shutdown()
      await server.stop()
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
  }

  private func measure(
    engine: BotEngine, state: ForumState, threads: [Int], poster: Int, room transport: NullTransport
  ) async throws -> Result {
    try await engine.subscriptions.subscribe(room: RoomRef(transport: transport.name, room: "bench"), to: .bookmarks)
    let seed = await engine.polling.poll(.bookmarks)
    if let error = seed.error { throw ValidationError("seeding poll failed: \(error)") }

    await state.clearRequests()
    let quiet = await engine.polling.poll(.bookmarks)
    if let error = quiet.error { throw ValidationError("quiet check failed: \(error)") }
    let quietRequests = await state.requests().count

    var random = BenchRandom(seed: 28)
    for thread in threads.shuffled(using: &random).prefix(changed) {
      try await state.addPost(thread: thread, author: poster, body: "A post for the cycle cost.")
    }
    await state.clearRequests()
    let busy = await engine.polling.poll(.bookmarks)
    if let error = busy.error { throw ValidationError("check after the posts failed: \(error)") }
    let requests = await state.requests()
    return Result(
      seedPages: seed.listPages, quietRequests: quietRequests,
      changedBookmarksPages: requests.filter { $0.path == "/bookmarkthreads.php" }.count,
      changedThreadPages: requests.filter { $0.path == "/showthread.php" }.count, newPosts: busy.newPosts)
  }
}
