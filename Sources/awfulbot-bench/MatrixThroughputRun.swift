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
      let roomIDs = try await Self.rooms(
        rooms, named: "\(kind)throughput", round: round, postsPerDrain: postsPerRoom, bot: bot, context: context,
        encrypted: encrypted)
      let queued = try await Self.queue(postsPerRoom, rooms: rooms, bot: bot, context: context)
      return try await Self.drain(
        queued, rooms: roomIDs, bot: bot, homeserverCPU: homeserverCPU, alongside: other)
    }
  }

  /// Rooms the owner creates and the bot joins, each subscribed to the bookmarks with the replay cap at
  /// `postsPerDrain` (every post one by one, no summary line in place of posts past the cap); the bookmarks are
  /// polled once so that only posts added afterwards are new.
  static func rooms(
    _ count: Int, named name: String, round: Int, postsPerDrain: Int, bot: MatrixBenchBot,
    context: MatrixBenchContext, encrypted: Bool = false
  ) async throws -> [String] {
    var roomIDs: [String] = []
    for n in 1...count {
      let room = try await context.joinedRoom(
        "awfulbot-bench \(name) \(n)/\(count) round \(round)", bot: bot, encrypted: encrypted)
      try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks, createdBy: "bench")
      try await bot.engine.roomSettings.update(room: bot.room(room)) { $0.replayCap = postsPerDrain }
      roomIDs.append(room)
    }
    let seed = await bot.engine.polling.poll(.bookmarks)
    try MatrixLatencyRun.check(seed, "seeding poll")
    return roomIDs
  }

  /// Adds `posts` posts on the emulator and polls, so that every room has `posts` rows queued; returns the rows.
  static func queue(_ posts: Int, rooms: Int, bot: MatrixBenchBot, context: MatrixBenchContext) async throws -> Int {
    for n in 1...posts { try await context.forum.addPost("Throughput post \(n) of \(posts).") }
    let poll = await bot.engine.polling.poll(.bookmarks)
    try MatrixLatencyRun.check(poll, "poll")
    let queued = try await bot.pendingRows()
    guard queued == posts * rooms else {
      throw MatrixBenchmarkError.failed("expected \(posts * rooms) queued rows, found \(queued)")
    }
    return queued
  }

  /// One `Dispatcher.drain()` of the `queued` rows, timed, with `other` started at the same moment.
  static func drain<Other: Sendable>(
    _ queued: Int, rooms roomIDs: [String], bot: MatrixBenchBot, homeserverCPU: HomeserverCPU,
    alongside other: @escaping @Sendable () async throws -> Other
  ) async throws -> (MatrixThroughputResult, Other) {
    let waitsBefore = bot.transport.rateLimitWaits
    let workBefore = await HomeserverWork.snapshot()
    let before = ProcessUsage.now()
    let homeserverBefore = homeserverCPU.seconds()
    let started = ContinuousClock.now
    async let alongside = other()
    let report = await bot.dispatcher.drain()
    let elapsed = ContinuousClock.now - started
    let otherResult = try await alongside
    let after = ProcessUsage.now()
    let homeserverAfter = homeserverCPU.seconds()
    let workAfter = await HomeserverWork.snapshot()
    guard report.delivered == queued else {
      throw MatrixBenchmarkError.failed(
        "\(roomIDs.count) room(s): \(report.delivered) of \(queued) delivered (\(report.failed) failed, "
          + "\(report.retried) retried, \(report.deadLettered) dead-lettered)")
    }
    let waits = bot.transport.rateLimitWaits - waitsBefore
    guard waits == 0 else {
      throw MatrixBenchmarkError.failed("the homeserver rate-limited the bot \(waits) times: limits are not off")
    }
    let result = MatrixThroughputResult(
      events: report.delivered, seconds: elapsed.milliseconds / 1000,
      cpuSeconds: after.cpuSeconds - before.cpuSeconds,
      homeserverCPUSeconds: homeserverAfter.flatMap { after in homeserverBefore.map { after - $0 } },
      homeserverWork: workAfter.flatMap { after in workBefore.map { after.since($0) } }, roomIDs: roomIDs)
    return (result, otherResult)
  }
}
