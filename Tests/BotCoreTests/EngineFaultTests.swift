import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Engine forum faults")
struct EngineFaultTests {
  static let faults: [(String, any Error)] = [
    ("database down", ForumPageError.databaseUnavailable(title: "Database Error", message: "try later")),
    ("logged out", ForumPageError.loggedOut(message: "you must be a registered forums member")),
    ("HTTP 500", EngineTestHTTPError(status: 500)),
    ("page not understood", ScrapeError(page: "bookmarks", reason: "no thread table")),
  ]

  @Test("a poll cut short by shutdown is not reported as a forum failure")
  func cancelledPollIsNotAnError() async throws {
    let log = LogCapture()
    let forum = TestForum(clock: TestClock())
    forum.addThread("1", posts: 1)
    forum.setFault(CancellationError())
    let engine = BotEngine(
      database: try BotDatabase(), forum: forum, transports: [:],
      logger: .capturing(into: log))
    let poll = Task {
      // Cancelled before it polls: the forum call fails the way an interrupted request does.
      try? await Task.sleep(for: .seconds(30))
      return await engine.polling.poll(.bookmarks)
    }
    poll.cancel()
    let report = await poll.value
    #expect(!report.succeeded)
    let logged = log.messages
    #expect(logged.contains("poll interrupted by shutdown"))
    #expect(!logged.contains("poll failed") && !logged.contains("could not record poll health"), "\(logged)")
  }

  @Test("a failing bookmarks poll is an error: nothing lost, health shows it, the source backs off", arguments: 0..<4)
  func bookmarksFault(_ which: Int) async throws {
    let (name, fault) = Self.faults[which]
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()

    h.forum.addPost(to: "1", author: "alice", text: "posted during the outage")
    h.forum.setFault(fault)
    let first = await h.engine.polling.poll(.bookmarks)
    let second = await h.engine.polling.poll(.bookmarks)
    #expect(!first.succeeded, "\(name)")
    let health = try #require(try await h.engine.statusReports.health().sources.first { $0.source == "bookmarks" })
    #expect(health.consecutiveErrors == 2)
    #expect(health.lastError?.isEmpty == false)
    #expect(!(try await h.engine.statusReports.health().isHealthy))
    // Exponential: the second backoff is twice the first (jitter is off in tests).
    let firstDelay = try #require(first.nextAttempt).timeIntervalSince(h.clock.now())
    let secondDelay = try #require(second.nextAttempt).timeIntervalSince(h.clock.now())
    #expect(firstDelay == 30)
    #expect(secondDelay == 60)

    h.forum.setFault(nil)
    await h.cycle()
    #expect(h.texts().count == 1)
    #expect(h.texts().first?.contains("posted during the outage") == true)
    let recovered = try #require(try await h.engine.statusReports.health().sources.first { $0.source == "bookmarks" })
    #expect(recovered.consecutiveErrors == 0)
    #expect(recovered.totalErrors == 2)
  }

  @Test("a thread page failing mid-poll leaves that thread for the next poll, the others are relayed")
  func threadPageFault() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()
    h.forum.addPost(to: "1", author: "alice", text: "kept")
    h.forum.setThreadFault(ForumPageError.databaseUnavailable(title: "Database Error", message: "later"))
    let failed = await h.cycle()
    #expect(!failed.succeeded)
    #expect(h.transport.sent.isEmpty)
    h.forum.setThreadFault(nil)
    await h.cycle()
    #expect(h.texts().count == 1)
  }

  @Test("watch of an unknown thread reports the forum's error and subscribes nothing")
  func watchUnknownThread() async throws {
    let h = try EngineHarness()
    await #expect(throws: ForumPageError.self) {
      try await h.engine.subscriptions.watch(threadID: "404", room: h.room)
    }
    #expect(try await h.engine.subscriptions.subscriptions(room: h.room).isEmpty)
  }

  @Test("a room on an unknown transport is refused")
  func unknownTransport() async throws {
    let h = try EngineHarness()
    await #expect(throws: EngineError.self) {
      try await h.engine.subscriptions.subscribe(room: RoomRef(transport: "nope", room: "#x"), to: .bookmarks)
    }
  }
}
