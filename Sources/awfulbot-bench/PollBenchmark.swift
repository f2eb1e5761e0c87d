import ArgumentParser
import AwfulBotApp
import AwfulScraping
import BotCore
import ChatBridge
import BotStore
import FakeForum
import ForumsClient
import Foundation

/// `awfulbot-bench poll --bookmarks 2000 --changed 100`: one bookmarks poll cycle against the emulator, where
/// `changed` of the bookmarked threads got one new post each since the last cycle. Prints the requests made against
/// the minimum (one per bookmarks page plus one per page of new posts), the cycle's wall and CPU time, and the peak
/// RSS. The emulator runs in this process, so CPU time includes rendering the pages it serves.
struct PollBenchmark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "poll", abstract: "Time one bookmarks poll cycle against the forum emulator.")

  @Option(help: "Bookmarked threads.")
  var bookmarks: Int = 2000

  @Option(help: "Threads that get a new post before the measured cycle.")
  var changed: Int = 100

  @Option(help: "Posts each thread starts with (40 a page).")
  var postsPerThread: Int = 25

  @Option(help: "Measured cycles (each with a fresh set of changed threads).")
  var cycles: Int = 3

  func run() async throws {
    guard bookmarks > 0, (0...bookmarks).contains(changed), postsPerThread > 0, cycles > 0 else {
      throw ValidationError("need bookmarks > 0, 0 ≤ changed ≤ bookmarks, posts-per-thread > 0, cycles > 0")
    }
    let server = try await FakeForumServer(
      configuration: FakeForumConfiguration(port: 0, seed: .empty, requestLogLimit: 1_000_000))
    let baseURL = try await server.start()
    let state = server.state
    let bot = FakeForumSeed.botUserID
    let poster = try await state.addUser(name: "Bench Poster", password: "bench")
    let group = try await state.addGroup(title: "Main")
    let forumID = try await state.addForum(title: "Benchmarks", parent: group)
    let threadIDs = try await state.addGeneratedThreads(
      count: bookmarks, forum: forumID, author: poster, postsPerThread: postsPerThread, bookmarkedBy: bot)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-bench-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = try BotDatabase(path: directory.appendingPathComponent("bench.sqlite").path)
    let client = ForumsClient(
      configuration: ForumsClientConfiguration(
        baseURL: baseURL.appendingPathComponent(""),
        credentials: ForumCredentials(username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword),
        minimumRequestSpacing: .zero))
    let transport = NullTransport()
    let engine = BotEngine(
      database: database, forum: ForumsClientForum(client: client), transports: [transport.name: transport.capabilities]
    )
    let room = RoomRef(transport: transport.name, room: "bench")
    _ = try await engine.subscribe(room: room, to: .bookmarks, filters: .none, backfill: 0, createdBy: "bench")

    let seedStart = ContinuousClock.now
    let seed = await engine.poll(.bookmarks)
    let seedWall = ContinuousClock.now - seedStart
    if let error = seed.error { throw ValidationError("seeding poll failed: \(error)") }
    print("bookmarks \(bookmarks), changed \(changed) per cycle, \(postsPerThread) posts a thread")
    print("seeding cycle: \(seed.requests) requests, \(format(seedWall)) (first sight of every thread, no relay)")

    let bookmarkPages = (bookmarks + forumPageSize - 1) / forumPageSize
    var generator = SystemRandomNumberGenerator()
    for cycle in 1...cycles {
      let picked = Array(threadIDs.shuffled(using: &generator).prefix(changed))
      var minimum = bookmarkPages
      for thread in picked {
        try await state.addPost(thread: thread, author: poster, body: "Benchmark post in cycle \(cycle).")
        // The cursor sits on the last relayed post; the new one is on the page holding index count + 1.
        minimum += 1
      }
      await state.clearRequests()
      let before = ProcessUsage.now()
      let start = ContinuousClock.now
      let report = await engine.poll(.bookmarks)
      let wall = ContinuousClock.now - start
      let after = ProcessUsage.now()
      let requests = await state.requests().count
      if let error = report.error { throw ValidationError("poll failed: \(error)") }
      print(
        "cycle \(cycle): \(requests) requests (minimum \(minimum): \(bookmarkPages) bookmark pages + \(changed) "
          + "thread pages), \(report.newPosts) new posts, \(report.queued) queued; wall \(format(wall)), "
          + "CPU \(String(format: "%.3f", after.cpuSeconds - before.cpuSeconds)) s, peak RSS "
          + "\(String(format: "%.1f", after.peakResidentMiB)) MiB")
    }
    try await client.shutdown()
    await server.stop()
  }

  private func format(_ duration: Duration) -> String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%.3f s", seconds)
  }
}
