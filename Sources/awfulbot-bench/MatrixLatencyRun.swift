import BotCore
import ChatBridge
import Foundation

/// Relay latency: per post, the time from adding it on the emulator to the owner's `/sync` long-poll returning it.
/// The bot runs its dispatcher service (woken by the queued row, as in production); the benchmark plays the poller
/// and polls the bookmarks right after each post.
struct MatrixLatencyRun {
  let context: MatrixBenchContext
  let posts: Int
  let warmups: Int

  func measure() async throws {
    let bot = try context.makeBot(database: "latency", runsDispatcher: true)
    let (samples, pollParts) = try await bot.run { bot in
      let room = try await context.joinedRoom("awfulbot-bench latency", bot: bot)
      try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks, createdBy: "bench")
      let seed = await bot.engine.polling.poll(.bookmarks)
      try Self.check(seed, "seeding poll")
      var since = try await context.owner.syncPosition()
      var samples: [Duration] = []
      var pollParts: [Duration] = []
      for n in 1...posts {
        // Unique and not a prefix of another marker, so only this post's message matches.
        let marker = "bench-latency-\(n)-\(UUID().uuidString.prefix(8))"
        let position = since
        // The owner is already long-polling when the post appears, like a chat client left open.
        async let seen = context.owner.waitForMessage(containing: marker, in: room, since: position)
        let started = ContinuousClock.now
        try await context.forum.addPost("Latency probe \(marker).")
        let report = await bot.engine.polling.poll(.bookmarks)
        try Self.check(report, "poll")
        pollParts.append(ContinuousClock.now - started)
        let result = try await seen
        since = result.since
        samples.append(result.seenAt - started)
      }
      return (samples, pollParts)
    }
    let measured = DurationSummary(Array(samples.dropFirst(warmups)))
    let polls = DurationSummary(Array(pollParts.dropFirst(warmups)))
    print(
      "relay latency (emulator post → poll → outbox → homeserver → owner's /sync), \(measured.count) posts after "
        + "\(warmups) warm-ups:")
    print("  \(measured.description); of which the poll (post → queued): median \(ms(polls.median))")
  }

  static func check(_ report: PollReport, _ what: String) throws {
    if let error = report.error { throw MatrixBenchmarkError.failed("\(what) failed: \(error)") }
  }
}

/// min / median / p90 / max of a set of durations (nearest-rank percentiles).
struct DurationSummary: CustomStringConvertible {
  let sorted: [Duration]

  init(_ samples: [Duration]) { sorted = samples.sorted() }

  var count: Int { sorted.count }
  var min: Duration { sorted.first ?? .zero }
  var max: Duration { sorted.last ?? .zero }
  var median: Duration { percentile(50) }

  func percentile(_ p: Int) -> Duration {
    guard !sorted.isEmpty else { return .zero }
    let rank = Int((Double(p) / 100 * Double(sorted.count)).rounded(.up))
    return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
  }

  var description: String {
    "min \(ms(min)), median \(ms(median)), p90 \(ms(percentile(90))), max \(ms(max))"
  }
}

func ms(_ duration: Duration) -> String { String(format: "%.1f ms", duration.milliseconds) }
