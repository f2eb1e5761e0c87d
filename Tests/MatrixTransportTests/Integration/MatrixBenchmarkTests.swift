import BotCore
import BotStore
import Foundation
import MatrixTransport
import Testing

/// Benchmarks, not tests: they print numbers and assert only that the work was done. Enabled with
/// `AWFULBOT_MATRIX_BENCH=1 scripts/with-synapse swift test --filter MatrixBenchmark`.
extension MatrixIntegrationTests {
  @Suite(
    "Matrix benchmarks",
    .enabled(if: ProcessInfo.processInfo.environment["AWFULBOT_MATRIX_BENCH"] == "1", "set AWFULBOT_MATRIX_BENCH=1"))
  struct MatrixBenchmark {
    static let devThread = 3_600_001

    @Test("latency of one relayed post: emulator → poll → outbox → homeserver → a client's /sync")
    func relayLatency() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await bot.engine.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          var since = try await owner.syncToken()
          var samples: [Duration] = []
          for n in 1...15 {
            let started = ContinuousClock.now
            _ = try await world.forumState.addPost(thread: Self.devThread, author: 1002, body: "latency \(n)")
            await bot.pollBookmarks()
            since = try await owner.waitForMessageViaSync(since: since, in: room, containing: "latency \(n)")
            samples.append(ContinuousClock.now - started)
          }
          let sorted = samples.dropFirst(3).sorted()
          print(
            "MATRIX BENCH relay latency over \(sorted.count) posts: min \(sorted.first!), median \(sorted[sorted.count / 2]), max \(sorted.last!)"
          )
        }
      }
    }

    @Test("dispatcher throughput with rate limits off", arguments: [1, 4])
    func dispatcherThroughput(rooms roomCount: Int) async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        let bot = try MatrixBotProcess(world: world, runsDispatcher: false)
        try await bot.run { bot in
          var rooms: [String] = []
          for n in 1...roomCount { rooms.append(try await bot.joinedRoom(owner: owner, name: "bench \(n)")) }
          for room in rooms {
            try await bot.engine.subscribe(room: bot.room(room), to: .bookmarks)
            _ = try await bot.engine.setReplayCap(room: bot.room(room), to: 1000)
          }
          await bot.pollBookmarks()
          let posts = 400 / roomCount
          for n in 1...posts {
            _ = try await world.forumState.addPost(thread: Self.devThread, author: 1003, body: "throughput \(n)")
          }
          await bot.pollBookmarks()
          let queued = try await bot.outbox().count
          let started = ContinuousClock.now
          let report = await bot.dispatcher.drain()
          let elapsed = ContinuousClock.now - started
          #expect(report.delivered == queued)
          let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
          print(
            "MATRIX BENCH dispatcher: \(report.delivered) events to \(roomCount) room(s) in \(elapsed) → \(String(format: "%.0f", Double(report.delivered) / seconds)) events/s"
          )
        }
      }
    }
  }
}

extension MatrixHuman {
  /// A `/sync` position from now on.
  func syncToken() async throws -> String {
    let answer = try await call(
      "GET", ["sync"], query: [("timeout", "0"), ("filter", #"{"room":{"timeline":{"limit":1}}}"#)])
    return try #require(answer["next_batch"]?.stringValue)
  }

  /// Long-polls `/sync` until a message containing `text` arrives in `room`; returns the new position.
  func waitForMessageViaSync(since: String, in room: String, containing text: String) async throws -> String {
    var since = since
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let answer = try await call(
        "GET", ["sync"],
        query: [
          ("since", since), ("timeout", "10000"), ("filter", #"{"room":{"timeline":{"types":["m.room.message"]}}}"#),
        ])
      since = try #require(answer["next_batch"]?.stringValue)
      let events = answer["rooms"]?["join"]?[room]?["timeline"]?["events"]?.arrayValue ?? []
      if events.contains(where: { $0["content"]?["body"]?.stringValue?.contains(text) == true }) { return since }
    }
    throw HumanError(description: "no message with “\(text)” in time")
  }
}
