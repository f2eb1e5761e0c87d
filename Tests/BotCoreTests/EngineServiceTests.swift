import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import ServiceLifecycle
import Testing

@testable import BotCore

@Suite("Engine services")
struct EngineServiceTests {
  @Test("the poller polls at start and again on requestPoll; the dispatcher sends; graceful shutdown ends both")
  func pollerAndDispatcherInAServiceGroup() async throws {
    // Hour-long intervals on a frozen clock: only the start and `requestPoll` can make the poller poll.
    let h = try EngineHarness {
      $0.bookmarksInterval = .seconds(3600)
      $0.releaseCheckInterval = .seconds(3600)
    }
    h.forum.addThread("1", posts: 2)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    let services: [any Service] = [
      Poller(engine: h.engine), Dispatcher(engine: h.engine, transport: h.transport, idleWait: .seconds(3600)),
    ]
    try await withRunningServices(services) {
      // Wait until the first (seeding) poll has happened.
      while (try await h.engine.statusReports.health().sources.first { $0.source == "bookmarks" }) == nil {
        await Task.yield()
      }
      h.forum.addPost(to: "1", author: "alice", text: "after a command")
      h.engine.polling.requestPoll()
      var sends = h.transport.sends.makeAsyncIterator()
      let sent = try #require(await sends.next())
      #expect(sent.message.text.contains("after a command"))
    }
    #expect(h.transport.sent.count == 1)
  }

  @Test("the poller takes the full sweep a page at a time when no check is due, and stops when it is done")
  func pollerTakesTheSweepBetweenChecks() async throws {
    // Hour-long check intervals on a frozen clock: after the check at start nothing is due, so every request after
    // it is a step of the sweep.
    let h = try EngineHarness {
      $0.bookmarksInterval = .seconds(3600)
      $0.bookmarksMinimumInterval = .seconds(3600)
      $0.releaseCheckInterval = .seconds(3600)
    }
    for index in 1...85 {
      h.forum.addThread("\(index)", posts: 1)
      h.clock.advance(by: 60)
    }
    await h.engine.polling.poll(.bookmarks)
    h.clock.advance(by: 3600)
    h.forum.resetRequests()
    try await withRunningServices([Poller(engine: h.engine)]) {
      while h.forum.requests.count < 3 { await Task.yield() }
      while try await h.database.read({ tx in try tx.bookmarksSweep() }) != nil { await Task.yield() }
    }
    #expect(h.forum.requests == ["bookmarks 1", "bookmarks 2", "bookmarks 3"])
    let mark = try await h.database.read { tx in try ThreadListMark.load(in: tx, key: ThreadListMark.bookmarksKey) }
    #expect(mark?.lastFullSweep == h.clock.now())
  }

  @Test("a wake signal sent before the wait is kept; a wait without a signal times out")
  func wakeSignal() async {
    let signal = WakeSignal()
    signal.signal()
    #expect(await signal.wait(timeout: .seconds(3600)))
    #expect(await !signal.wait(timeout: .milliseconds(1)))
    signal.close()
    #expect(await signal.wait(timeout: .seconds(3600)))
  }
}
