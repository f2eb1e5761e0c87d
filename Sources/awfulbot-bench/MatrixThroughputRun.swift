import BotCore
import ChatBridge
import Foundation

/// Dispatcher throughput with rate limits off: `events` posts' worth of rows queued for `rooms` rooms (every room
/// subscribes to the bookmarks and gets every post, so `events / rooms` posts), then one `Dispatcher.drain()` timed.
/// The dispatcher service is not running, so nothing is sent before the clock starts.
struct MatrixThroughputRun {
  let context: MatrixBenchContext
  let rooms: Int
  let events: Int
  /// End-to-end encrypted rooms (every event Megolm-encrypted, the key shared before the first).
  var encrypted = false

  /// Prints the figures; returns events per second.
  @discardableResult
  func measure() async throws -> Double {
    let kind = encrypted ? "encrypted-" : ""
    let bot = try context.makeBot(
      database: "throughput-\(kind)\(rooms)", runsDispatcher: false, encrypted: encrypted)
    let (line, rate) = try await bot.run { bot in
      let postsPerRoom = events / rooms
      for n in 1...rooms {
        let room = try await context.joinedRoom(
          "awfulbot-bench \(kind)throughput \(n)/\(rooms)", bot: bot, encrypted: encrypted)
        try await bot.engine.subscribe(room: bot.room(room), to: .bookmarks, createdBy: "bench")
        // Every post one by one: no summary line in place of posts past the cap.
        try await bot.engine.setReplayCap(room: bot.room(room), to: postsPerRoom)
      }
      let seed = await bot.engine.poll(.bookmarks)
      try MatrixLatencyRun.check(seed, "seeding poll")
      for n in 1...postsPerRoom { try await context.forum.addPost("Throughput post \(n) of \(postsPerRoom).") }
      let poll = await bot.engine.poll(.bookmarks)
      try MatrixLatencyRun.check(poll, "poll")
      let queued = try await bot.pendingRows()
      guard queued == postsPerRoom * rooms else {
        throw MatrixBenchmarkError.failed("expected \(postsPerRoom * rooms) queued rows, found \(queued)")
      }
      let waitsBefore = bot.transport.rateLimitWaits
      let before = ProcessUsage.now()
      let started = ContinuousClock.now
      let report = await bot.dispatcher.drain()
      let elapsed = ContinuousClock.now - started
      let after = ProcessUsage.now()
      guard report.delivered == queued else {
        throw MatrixBenchmarkError.failed(
          "\(rooms) room(s): \(report.delivered) of \(queued) delivered (\(report.failed) failed, "
            + "\(report.retried) retried, \(report.deadLettered) dead-lettered)")
      }
      let seconds = elapsed.milliseconds / 1000
      let perSecond = Double(report.delivered) / seconds
      let rate = String(format: "%.0f", perSecond)
      let line =
        "  \(rooms) \(kind.isEmpty ? "" : "encrypted ")room\(rooms == 1 ? "" : "s"): \(report.delivered) events in "
        + "\(String(format: "%.3f", seconds)) s → \(rate) events/s; CPU "
        + "\(String(format: "%.2f", after.cpuSeconds - before.cpuSeconds)) s; peak RSS "
        + "\(String(format: "%.1f", after.peakResidentMiB)) MiB; \(bot.transport.rateLimitWaits - waitsBefore) "
        + "rate-limit waits"
      return (line, perSecond)
    }
    print(line)
    return rate
  }
}
