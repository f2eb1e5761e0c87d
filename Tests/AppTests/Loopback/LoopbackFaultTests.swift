import AwfulBotTestKit
import ChatBridge
import FakeForum
import Foundation
import Testing

@testable import BotCore

/// Faults switched on in the emulator while the engine polls through the real client: each is an error for the
/// poll (never "nothing new"), visible in `health()` with a backoff, and nothing posted meanwhile is lost.
@Suite("Loopback forum faults")
struct LoopbackFaultTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var fault: Fault
    /// Words the recorded error must contain.
    var mentions: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "database unavailable", fault: .databaseUnavailable, mentions: "database"),
    Case(name: "HTTP 500 on every attempt", fault: .serverError(count: nil), mentions: "500"),
    Case(name: "banned", fault: .banned, mentions: "banned"),
    Case(name: "truncated HTML", fault: .truncatedHTML, mentions: "bookmarks"),
  ]

  @Test("a fault fails the poll, shows in health with backoff, and loses nothing once cleared", arguments: cases)
  func faultIsAnErrorAndLosesNothing(_ testCase: Case) async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()
      let ids = try await world.addPosts(2, prefix: "Posted during the fault")

      await world.state.setFault(testCase.fault)
      let first = await bot.cycle()
      let afterFirst = try #require(try await bot.bookmarksHealth())
      let second = await bot.cycle()

      #expect(!first.succeeded && !second.succeeded)
      let error = try #require(first.error)
      #expect(error.localizedCaseInsensitiveContains(testCase.mentions), "\(error)")
      #expect(!error.contains(FakeForumSeed.botPassword))
      #expect(bot.transport.sent.isEmpty)
      #expect(try await bot.rows().isEmpty)
      let health = try #require(try await bot.bookmarksHealth())
      #expect(health.consecutiveErrors == 2)
      #expect(health.lastError == second.error)
      #expect(!(try await bot.engine.statusReports.health().isHealthy))
      // Exponential backoff from the 30 s base (jitter is off): 30 s after the first error, 60 s after the second.
      #expect(afterFirst.consecutiveErrors == 1)
      #expect(try Self.backoff(of: afterFirst) == 30)
      #expect(try Self.backoff(of: health) == 60)

      await world.state.clearFaults()
      let recovered = await bot.cycle()
      #expect(recovered.succeeded, "\(recovered.error ?? "")")
      #expect(bot.transport.sent.map(\.key) == ids.map { "test|!room|post:\($0)" })
      #expect(bot.texts().first?.contains("Posted during the fault 1") == true)
      let healed = try #require(try await bot.bookmarksHealth())
      #expect(healed.consecutiveErrors == 0)
      #expect(healed.totalErrors == 2)
      try await bot.stop()
    }
  }

  /// Seconds from the last error to the next attempt, rounded to absorb the store's millisecond precision.
  static func backoff(of health: SourceHealth) throws -> Double {
    let next = try #require(health.nextAttempt)
    let error = try #require(health.lastErrorAt)
    return next.timeIntervalSince(error).rounded()
  }

  @Test("a forced logout is answered by logging in again within the poll; nothing is lost")
  func forcedLogout() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()
      let ids = try await world.addPosts(3, prefix: "Posted while logged out")
      await world.state.clearRequests()

      await world.state.invalidateSessions()
      let report = await bot.cycle()

      #expect(report.succeeded, "\(report.error ?? "")")
      #expect(await world.requests(to: "/account.php").count == 1)
      #expect(bot.transport.sent.map(\.key) == ids.map { "test|!room|post:\($0)" })
      #expect(try await bot.bookmarksHealth()?.consecutiveErrors == 0)
      try await bot.stop()
    }
  }

  @Test("a few HTTP 500s are retried within the poll and do not count as an error")
  func transientServerErrors() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()
      let ids = try await world.addPosts(1, prefix: "Posted behind a hiccup")
      await world.state.setFault(.serverError(count: 2))
      let report = await bot.cycle()

      #expect(report.succeeded, "\(report.error ?? "")")
      #expect(bot.transport.sent.map(\.key) == ids.map { "test|!room|post:\($0)" })
      #expect(try await bot.bookmarksHealth()?.totalErrors == 0)
      try await bot.stop()
    }
  }
}
