import ArgumentParser
import AwfulBotApp
import BotCore
import BotStore
import ChatBridge
import FakeForum
import ForumModel
import ForumsClient
import Foundation

/// `awfulbot-bench poll`: full sweeps of the bookmarks against the emulator, where `changed` of the bookmarked
/// threads got one new post each since the last cycle. For each case it prints the requests made against the minimum (one per
/// bookmarks page plus one per changed thread), the bot's CPU time and peak RSS, and the emulator's CPU time.
///
/// The emulator runs in a process of its own (`poll-forum`), so the bot's CPU and memory are its own: in one
/// process, rendering the pages cost about as much as reading them. With several cases, each runs in a fresh bench
/// process, so each peak RSS is that case's alone.
struct PollBenchmark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "poll", abstract: "Time bookmarks poll cycles against the forum emulator.")

  @Option(parsing: .upToNextOption, help: "Bookmarked threads; several values run several cases.")
  var bookmarks: [Int] = [2000, 20_000]

  @Option(
    parsing: .upToNextOption,
    help: "Threads that get a new post before each measured cycle; several values run several cases.")
  var changed: [Int] = [100, 1000]

  @Option(help: "Posts each thread starts with (40 a page).")
  var postsPerThread: Int = 25

  @Option(help: "Measured cycles per case (each with a fresh set of changed threads); the table shows the median.")
  var cycles: Int = 3

  @Option(
    help: ArgumentHelp(
      "The emulator's page navigation: new (default: data attributes and a <select> of every page), data (no <select>) or old.",
      discussion: "Bookmarks pages carry the page list twice; with 20,000 bookmarks the <select> is 500 options."))
  var pageNav: String = "new"

  @Flag(help: .hidden)
  var resultLine = false

  /// The CPU target for 2,000 bookmarks with 100 changed (issue 16).
  static let smallCaseCPUTarget = 0.4
  /// The peak RSS target with 20,000 bookmarks (issue 16).
  static let largeCaseMemoryTarget = 100.0

  func run() async throws {
    let cases = bookmarks.flatMap { count in changed.filter { $0 <= count }.map { (bookmarks: count, changed: $0) } }
    guard !cases.isEmpty, cases.allSatisfy({ $0.bookmarks > 0 && $0.changed >= 0 }), postsPerThread > 0, cycles > 0
    else {
      throw ValidationError("need bookmarks > 0, 0 ≤ changed ≤ bookmarks, posts-per-thread > 0, cycles > 0")
    }
    if cases.count == 1 {
      let result = try await PollCase(
        bookmarks: cases[0].bookmarks, changed: cases[0].changed, postsPerThread: postsPerThread, cycles: cycles,
        pageNav: pageNav
      ).run { print($0) }
      if resultLine { print("result " + String(decoding: try JSONEncoder().encode(result), as: UTF8.self)) }
      return
    }
    print(
      "awfulbot-bench poll: \(cycles) cycles a case, \(postsPerThread) posts a thread, page nav \(pageNav); "
        + "medians of the cycles")
    var results: [PollCaseResult] = []
    for pollCase in cases {
      print("\(pollCase.bookmarks) bookmarks, \(pollCase.changed) changed:")
      let result = try runInOwnProcess(bookmarks: pollCase.bookmarks, changed: pollCase.changed)
      results.append(result)
    }
    print()
    print(PollCaseResult.header)
    for result in results { print(result.row) }
    print()
    for line in verdicts(results) { print(line) }
  }

  /// Runs one case in a new bench process and returns its result line.
  private func runInOwnProcess(bookmarks: Int, changed: Int) throws -> PollCaseResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = [
      "poll", "--bookmarks", String(bookmarks), "--changed", String(changed), "--posts-per-thread",
      String(postsPerThread), "--cycles", String(cycles), "--page-nav", pageNav, "--result-line",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var result: PollCaseResult?
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      if line.hasPrefix("result ") {
        result = try JSONDecoder().decode(PollCaseResult.self, from: Data(line.dropFirst("result ".count).utf8))
      } else {
        print("  \(line)")
      }
    }
    guard process.terminationStatus == 0, let result else {
      throw ValidationError("the case with \(bookmarks) bookmarks and \(changed) changed failed")
    }
    return result
  }

  private func verdicts(_ results: [PollCaseResult]) -> [String] {
    var lines: [String] = []
    let minimal = results.allSatisfy { $0.requests == $0.minimumRequests }
    lines.append("requests: \(minimal ? "the minimum in every case" : "ABOVE the minimum in some case")")
    if let small = results.first(where: { $0.bookmarks == 2000 && $0.changed == 100 }) {
      let verdict = small.botCPUSeconds < Self.smallCaseCPUTarget ? "under" : "ABOVE"
      lines.append(
        "2,000/100: bot CPU \(String(format: "%.3f", small.botCPUSeconds)) s, \(verdict) the "
          + "\(Self.smallCaseCPUTarget) s target")
    }
    for large in results where large.bookmarks >= 20_000 {
      let verdict = large.botPeakMiB < Self.largeCaseMemoryTarget ? "under" : "ABOVE"
      lines.append(
        "\(large.bookmarks)/\(large.changed): bot peak RSS \(String(format: "%.1f", large.botPeakMiB)) MiB, "
          + "\(verdict) the \(Int(Self.largeCaseMemoryTarget)) MiB target")
      if let small = results.first(where: { $0.bookmarks < large.bookmarks && $0.changed == large.changed }) {
        let requests = Double(large.requests) / Double(small.requests)
        let cpu = large.botCPUSeconds / small.botCPUSeconds
        lines.append(
          "\(small.bookmarks) → \(large.bookmarks) bookmarks with \(large.changed) changed: requests ×"
            + "\(String(format: "%.2f", requests)), bot CPU ×\(String(format: "%.2f", cpu)) ("
            + (cpu <= requests ? "no faster" : "FASTER") + " than the requests)")
      }
    }
    return lines
  }
}

/// One case's medians, as the table prints them.
struct PollCaseResult: Codable {
  var bookmarks: Int
  var changed: Int
  var requests: Int
  var minimumRequests: Int
  var botCPUSeconds: Double
  var emulatorCPUSeconds: Double
  var wallSeconds: Double
  var botPeakMiB: Double
  var emulatorPeakMiB: Double

  static let header =
    "bookmarks  changed  requests (minimum)  bot CPU s  bot CPU ms/request  bot peak MiB  emulator CPU s  "
    + "emulator peak MiB  wall s"

  var row: String {
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
    let perRequest = requests > 0 ? botCPUSeconds * 1000 / Double(requests) : 0
    return pad("\(bookmarks)", 11) + pad("\(changed)", 9) + pad("\(requests) (\(minimumRequests))", 20)
      + pad(String(format: "%.3f", botCPUSeconds), 11) + pad(String(format: "%.2f", perRequest), 20)
      + pad(String(format: "%.1f", botPeakMiB), 14) + pad(String(format: "%.3f", emulatorCPUSeconds), 16)
      + pad(String(format: "%.1f", emulatorPeakMiB), 19) + String(format: "%.3f", wallSeconds)
  }
}

/// One case: the emulator process, a fresh database, the engine with the forum client, a seeding poll, then the
/// measured cycles.
struct PollCase {
  var bookmarks: Int
  var changed: Int
  var postsPerThread: Int
  var cycles: Int
  var pageNav: String

  func run(report: (String) -> Void) async throws -> PollCaseResult {
    let forum = try await PollForumProcess(bookmarks: bookmarks, postsPerThread: postsPerThread, pageNav: pageNav)
    defer { forum.stop() }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-bench-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = try BotDatabase(path: directory.appendingPathComponent("bench.sqlite").path)
    let client = ForumsClient(
      configuration: ForumsClientConfiguration(
        baseURL: forum.baseURL.appendingPathComponent(""),
        credentials: ForumCredentials(username: FakeForumSeed.botUsername, password: FakeForumSeed.botPassword),
        minimumRequestSpacing: .zero))
    let transport = NullTransport()
    let bookmarkPages = (bookmarks + forumPageSize - 1) / forumPageSize
    var engineConfiguration = EngineConfiguration()
    // The engine stops after `maximumBookmarkPages` pages (200 by default, 8,000 bookmarks); the bench lets it
    // read them all, or the larger cases would measure a partial poll.
    let defaultPageBound = engineConfiguration.maximumBookmarkPages
    engineConfiguration.maximumBookmarkPages = max(defaultPageBound, bookmarkPages + 1)
    // Every measured cycle is a full sweep, the costliest cycle (hourly since issue 28; a check from the top of the
    // list reads a page or a few, which `latency` measures).
    engineConfiguration.bookmarksFullSweepInterval = .zero
    let engine = BotEngine(
      database: database, forum: client,
      transports: [transport.name: transport.capabilities],
      configuration: engineConfiguration)
    let room = RoomRef(transport: transport.name, room: "bench")
    _ = try await engine.subscriptions.subscribe(
      room: room, to: .bookmarks, filters: .none, backfill: 0, createdBy: "bench")

    let seedStart = ContinuousClock.now
    let seed = await engine.polling.poll(.bookmarks)
    let seedWall = ContinuousClock.now - seedStart
    if let error = seed.error { throw ValidationError("seeding poll failed: \(error)") }
    report("bookmarks \(bookmarks), changed \(changed) per cycle, \(postsPerThread) posts a thread")
    if bookmarkPages > defaultPageBound {
      report("engine maximumBookmarkPages raised from \(defaultPageBound) to \(bookmarkPages + 1) for this case")
    }
    report("seeding cycle: \(seed.requests) requests, \(format(seedWall.seconds)) s (first sight of every thread)")

    let profiler = PerfControl.fromEnvironment()
    var samples: [(requests: Int, bot: Double, emulator: Double, wall: Double)] = []
    // The cursor sits on each thread's last post; a new post is on the page after it: one request per thread.
    let minimum = bookmarkPages + changed
    for cycle in 1...cycles {
      try await forum.change(changed, cycle: cycle)
      let emulatorBefore = try await forum.usage()
      let before = ProcessUsage.now()
      let start = ContinuousClock.now
      profiler?.enable()
      let pollReport = await engine.polling.poll(.bookmarks)
      profiler?.disable()
      let wall = (ContinuousClock.now - start).seconds
      let after = ProcessUsage.now()
      let emulatorAfter = try await forum.usage()
      let requests = try await forum.requestCount()
      if let error = pollReport.error { throw ValidationError("poll failed: \(error)") }
      let bot = after.cpuSeconds - before.cpuSeconds
      let emulator = emulatorAfter.cpuSeconds - emulatorBefore.cpuSeconds
      samples.append((requests, bot, emulator, wall))
      report(
        "cycle \(cycle): \(requests) requests (minimum \(minimum): \(bookmarkPages) bookmark pages + \(changed) "
          + "thread pages), \(pollReport.newPosts) new posts, \(pollReport.queued) queued; wall \(format(wall)) s, "
          + "bot CPU \(format(bot)) s, emulator CPU \(format(emulator)) s, bot peak RSS "
          + "\(String(format: "%.1f", after.peakResidentMiB)) MiB")
    }
    let emulatorUsage = try await forum.usage()
    try await client.shutdown()
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return PollCaseResult(
      bookmarks: bookmarks, changed: changed, requests: samples.map(\.requests).max() ?? 0, minimumRequests: minimum,
      botCPUSeconds: median(samples.map(\.bot)), emulatorCPUSeconds: median(samples.map(\.emulator)),
      wallSeconds: median(samples.map(\.wall)), botPeakMiB: ProcessUsage.now().peakResidentMiB,
      emulatorPeakMiB: emulatorUsage.peakResidentMiB)
  }

  private func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}

extension Duration {
  var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}

/// Switches a `perf record --control fifo:CTL -D -1` session on for the measured polls only, so a profile leaves
/// out the set-up and the seeding poll (20,000 first-seen threads written once). Set `AWFULBOT_BENCH_PERF_CTL` to
/// the control fifo's path.
struct PerfControl {
  let handle: FileHandle

  static func fromEnvironment() -> PerfControl? {
    guard let path = ProcessInfo.processInfo.environment["AWFULBOT_BENCH_PERF_CTL"],
      let handle = FileHandle(forWritingAtPath: path)
    else { return nil }
    return PerfControl(handle: handle)
  }

  func enable() { handle.write(Data("enable\n".utf8)) }
  func disable() { handle.write(Data("disable\n".utf8)) }
}
