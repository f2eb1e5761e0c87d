import BotCore
import ChatBridge
import Foundation

/// Dispatcher throughput with rate limits off: `events` posts' worth of rows queued for `rooms` rooms (every room
/// subscribes to the bookmarks and gets every post, so `events / rooms` posts), then one `Dispatcher.drain()` timed.
/// The dispatcher service is not running, so nothing is sent before the clock starts; the transport's `/sync` loop
/// is, as in the real bot.
struct MatrixThroughputRun {
  let context: MatrixBenchContext
  let rooms: Int
  let events: Int
  let homeserverCPU: HomeserverCPU
  /// Names this leg's database and rooms.
  let round: Int
  /// End-to-end encrypted rooms (every event Megolm-encrypted, the key shared before the first).
  var encrypted = false

  func measure() async throws -> MatrixThroughputResult {
    try await measure(alongside: {}).0
  }

  /// The same, with `other` started at the moment the drain starts (the side-by-side comparison runs the plain
  /// sender there); returns once both are done.
  func measure<Other: Sendable>(alongside other: @escaping @Sendable () async throws -> Other) async throws
    -> (MatrixThroughputResult, Other)
  {
    let kind = encrypted ? "encrypted-" : ""
    let bot = try context.makeBot(
      database: "throughput-\(kind)\(rooms)-\(round)", runsDispatcher: false, encrypted: encrypted)
    return try await bot.run { bot in
      let postsPerRoom = events / rooms
      var roomIDs: [String] = []
      for n in 1...rooms {
        let room = try await context.joinedRoom(
          "awfulbot-bench \(kind)throughput \(n)/\(rooms) round \(round)", bot: bot, encrypted: encrypted)
        try await bot.engine.subscribe(room: bot.room(room), to: .bookmarks, createdBy: "bench")
        // Every post one by one: no summary line in place of posts past the cap.
        try await bot.engine.setReplayCap(room: bot.room(room), to: postsPerRoom)
        roomIDs.append(room)
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
      let homeserverBefore = homeserverCPU.seconds()
      let started = ContinuousClock.now
      async let alongside = other()
      let report = await bot.dispatcher.drain()
      let elapsed = ContinuousClock.now - started
      let otherResult = try await alongside
      let after = ProcessUsage.now()
      let homeserverAfter = homeserverCPU.seconds()
      guard report.delivered == queued else {
        throw MatrixBenchmarkError.failed(
          "\(rooms) room(s): \(report.delivered) of \(queued) delivered (\(report.failed) failed, "
            + "\(report.retried) retried, \(report.deadLettered) dead-lettered)")
      }
      let waits = bot.transport.rateLimitWaits - waitsBefore
      guard waits == 0 else {
        throw MatrixBenchmarkError.failed("the homeserver rate-limited the bot \(waits) times: limits are not off")
      }
      let result = MatrixThroughputResult(
        events: report.delivered, seconds: elapsed.milliseconds / 1000,
        cpuSeconds: after.cpuSeconds - before.cpuSeconds,
        homeserverCPUSeconds: homeserverAfter.flatMap { after in homeserverBefore.map { after - $0 } }, roomIDs: roomIDs
      )
      return (result, otherResult)
    }
  }
}
