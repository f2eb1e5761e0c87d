import AwfulBotMatrixTestKit
import AwfulBotTestKit
import ChatBridge
import Foundation
import MatrixTransport
import ServiceLifecycle
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension MatrixIntegrationTests.HostileChain {
  @Suite("crashes, rate limits and restarts", .serialized)
  struct Resilience {
    static let devThread = 3_600_001

    @Test("a crash after the homeserver accepted an event: after restart the room holds exactly one event")
    func crashBeforeMarking() async throws {
      try await MatrixTestWorld.with { world in
        let owner = try await MatrixHuman.register("owner")
        // The process dies right after the homeserver accepted the event, before the outbox row was marked: the
        // send goes through, then the dispatcher sees a cancellation and leaves the row pending.
        let first = try MatrixBotProcess(
          world: world,
          dispatchVia: { RecordingTransport(forwardingTo: $0, failingAfterSendWith: CancellationError()) },
          runsDispatcher: false)
        let (room, firstEventID) = try await first.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          _ = try await world.forumState.addPost(thread: Self.devThread, author: 1002, body: "sent exactly once")
          await bot.pollBookmarks()
          await bot.dispatcher.drain()
          let rows = try await bot.outbox()
          #expect(rows.count == 1)
          #expect(rows.first?.state == .pending, "the crash left the row unmarked")
          let events = try await owner.waitForMessages(in: room) { !$0.from(world.botAccount.userID).isEmpty }
          return (room, events.from(world.botAccount.userID).first?.eventID)
        }
        let sentID = try #require(firstEventID, "the homeserver accepted the event before the crash")

        let second = try MatrixBotProcess(world: world)
        try await second.run { bot in
          let rows = try await bot.waitUntilOutboxDelivered()
          #expect(rows.map(\.state) == [.delivered])
          #expect(rows.first?.receipt == sentID, "the resend returned the event the homeserver already had")
          let relayed = try await owner.messages(in: room).from(world.botAccount.userID)
          #expect(relayed.count == 1)
          #expect(relayed.filter { $0.body?.contains("sent exactly once") == true }.count == 1)
        }
      }
    }

    @Test("a 429 storm (low rate limit for the bot): every post is delivered, in order")
    func rateLimitStorm() async throws {
      try await MatrixTestWorld.with { world in
        let admin = try await MatrixHuman.register("admin", admin: true)
        let owner = try await MatrixHuman.register("owner")
        try await admin.overrideRateLimit(for: world.botAccount.userID, messagesPerSecond: 1, burst: 1)
        let bot = try MatrixBotProcess(world: world)
        try await bot.run { bot in
          let room = try await bot.joinedRoom(owner: owner)
          try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
          await bot.pollBookmarks()
          let count = 6
          for n in 1...count {
            _ = try await world.forumState.addPost(thread: Self.devThread, author: 1003, body: "storm \(n)")
          }
          await bot.pollBookmarks()
          let events = try await owner.waitForMessages(in: room, timeout: .seconds(60)) {
            $0.from(world.botAccount.userID).count >= count
          }
          let bodies = events.from(world.botAccount.userID).compactMap(\.body)
          let order = bodies.compactMap { body in
            (1...count).first {
              body.contains("storm \($0)\n") || body.hasSuffix("storm \($0)") || body.contains("storm \($0) ")
            }
          }
          #expect(bodies.count == count)
          #expect(order == Array(1...count), "in order: \(bodies)")
          #expect(bot.transport.rateLimitWaits > 0, "the homeserver did answer 429")
          let rows = try await bot.outbox()
          #expect(rows.allSatisfy { $0.state == .delivered })
        }
      }
    }
  }
}

/// The homeserver restart, in a `swift test` of its own: every other suite on the same homeserver would see it go
/// away. `scripts/test` runs it after the others, with `AWFULBOT_SYNAPSE_RESTART_TESTS=1`; scripts/crash-matrix
/// restarts the homeserver under a running bot too.
@Suite(
  "a homeserver restart", .timeLimit(.minutes(3)),
  .enabled(
    if: SynapseEnvironment.restartsAllowed,
    "restarts the homeserver: run alone, with AWFULBOT_SYNAPSE_RESTART_TESTS=1 (scripts/test does)"))
struct MatrixHomeserverRestartTests {
  static let devThread = MatrixIntegrationTests.Resilience.devThread

  @Test("a homeserver restart mid-run: the bot reconnects and delivers")
  func homeserverRestart() async throws {
    let pidFile = try #require(
      SynapseEnvironment.pidFile, "needs scripts/with-synapse, whose supervisor restarts the homeserver")
    try await MatrixTestWorld.with { world in
      let owner = try await MatrixHuman.register("owner")
      let bot = try MatrixBotProcess(world: world)
      try await bot.run { bot in
        let room = try await bot.joinedRoom(owner: owner)
        try await bot.engine.subscriptions.subscribe(room: bot.room(room), to: .bookmarks)
        await bot.pollBookmarks()

        let pid = try #require(
          Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, SIGTERM) == 0)
        try await waitForHomeserver(up: false)
        _ = try await world.forumState.addPost(
          thread: Self.devThread, author: 1002, body: "written during the restart")
        await bot.pollBookmarks()
        try await waitForHomeserver(up: true)

        let events = try await owner.waitForMessages(in: room, timeout: .seconds(40)) {
          $0.from(world.botAccount.userID).contains { $0.body?.contains("written during the restart") == true }
        }
        #expect(events.from(world.botAccount.userID).count == 1)
        // The sync loop is back too: a command is answered.
        let command = try await owner.say("!help", in: room)
        let answered = try await owner.waitForMessages(in: room, timeout: .seconds(30)) {
          $0.contains { $0.replyTo == command }
        }
        #expect(answered.contains { $0.replyTo == command })
        guard case .connected = bot.transport.status else {
          Issue.record("status after the restart: \(bot.transport.status)")
          return
        }
      }
    }
  }

  private func waitForHomeserver(up: Bool) async throws {
    let answered = try await readUntil(every: .milliseconds(100), timeout: .seconds(60)) {
      (try? await MatrixHuman.raw("GET", "/_matrix/client/versions"))?.status == 200
    } until: {
      $0 == up
    }
    guard answered == up else {
      throw MatrixHuman.HumanError(description: "homeserver did not come \(up ? "up" : "down") in time")
    }
  }
}
