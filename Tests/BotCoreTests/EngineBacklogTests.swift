import AwfulBotTestKit
import BotStore
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// A room whose chat service sends slower than the forum posts gets summaries instead of an ever longer queue; a
/// queue that is merely long for a moment (a restart with rows waiting, which a fast service drains in seconds) does
/// not.
@Suite("Engine backlog")
struct EngineBacklogTests {
  static func harness() async throws -> EngineHarness {
    let h = try EngineHarness { $0.backlogLimit = 5 }
    h.forum.addThread("1", title: "Busy thread", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.engine.polling.poll(.bookmarks)
    // Nothing is sent (the dispatcher is not drained): five posts wait.
    for _ in 1...5 { h.forum.addPost(to: "1", author: "alice") }
    await h.engine.polling.poll(.bookmarks)
    return h
  }

  @Test("a long queue that is young: new posts still go one by one")
  func youngQueue() async throws {
    let h = try await Self.harness()
    h.clock.advance(by: 30)
    h.forum.addPost(to: "1", author: "bob")
    await h.engine.polling.poll(.bookmarks)
    #expect(try await h.rows().map(\.kind) == Array(repeating: .post, count: 6))
  }

  @Test("a long queue whose oldest message waits for minutes: new posts become one summary, and status says why")
  func laggingQueue() async throws {
    let h = try await Self.harness()
    h.clock.advance(by: 180)
    h.forum.addPost(to: "1", author: "bob")
    h.forum.addPost(to: "1", author: "carol")
    await h.engine.polling.poll(.bookmarks)
    let rows = try await h.rows()
    #expect(rows.map(\.kind) == Array(repeating: .post, count: 5) + [.summary])
    #expect(rows.last?.reason?.contains("5 messages were still waiting for this room") == true)
    let status = try await h.engine.statusReports.status(room: h.room)
    #expect(status.pending == 6 && status.pending >= status.backlogLimit)
  }
}
