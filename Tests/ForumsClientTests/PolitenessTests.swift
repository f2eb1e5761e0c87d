import AwfulBotTestKit
import FakeForum
import Foundation
import Logging
import Testing

@testable import ForumsClient

@Suite("Politeness and secrecy", .serialized)
struct PolitenessTests {
  @Test func requestStartsAreSpacedEvenWhenCallsRunConcurrently() async throws {
    let spacing = 0.3
    try await withFakeForum(configure: { $0.minimumRequestSpacing = .milliseconds(300) }) { forum in
      let client = forum.client
      async let first = client.bookmarks(page: 1)
      async let second = client.threadPage(threadID: "3600002", page: .number(1))
      async let third = client.threads(forumID: "46", page: 1)
      _ = try await (first, second, third)

      let log = await forum.state.requests()
      #expect(log.count == 5)  // login, its redirect, three pages
      let gaps = zip(log.dropFirst(), log).map { $0.timestamp.timeIntervalSince($1.timestamp) }
      // The forum stamps arrivals, which may trail the client's start by a little network time: allow for it.
      for gap in gaps {
        #expect(gap >= spacing - 0.1, "requests \(gap) s apart")
      }
    }
  }

  @Test func theRequestLogShowsNoseenOnEveryThreadLoad() async throws {
    try await withFakeForum { forum in
      _ = try await forum.client.posts(threadID: "3600001", after: 10)
      _ = try await forum.client.threadPage(threadID: "3600003", page: .last)
      let loads = await forum.requests(to: "/showthread.php")
      #expect(loads.count == 5)
      #expect(loads.allSatisfy { $0.queryValue("noseen") == "1" })
    }
  }

  @Test func logsNeverContainThePasswordOrCookieValues() async throws {
    let capture = LogCapture()
    try await withFakeForum { forum in
      let logger = Logger.capturing(into: capture, label: "test.forums")
      let client = ForumsClient(
        configuration: forum.client.configuration, cookieStore: forum.cookieStore, logger: logger)
      _ = try await client.bookmarks(page: 1)
      await forum.state.invalidateSessions()
      _ = try await client.bookmarks(page: 1)
      await forum.state.setFault(.serverError(count: 1))
      _ = try await client.forumIndex()
      let cookies = try await forum.cookieStore.load()
      try await client.shutdown()

      let lines = capture.lines
      #expect(!lines.isEmpty)
      let text = lines.joined(separator: "\n")
      #expect(!text.contains(FakeForumSeed.botPassword))
      for cookie in cookies where cookie.value.count >= 6 {
        #expect(!text.contains(cookie.value), "cookie \(cookie.name) leaked into the log")
      }
    }
  }
}
