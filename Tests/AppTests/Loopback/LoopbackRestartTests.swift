import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// Restarts on the real stack: a second engine and client on the same database file carry on where the first
/// stopped, whether it stopped cleanly or died between a send and its acknowledgement.
@Suite("Loopback restart")
struct LoopbackRestartTests {
  @Test("after a restart nothing is delivered twice, and posts made while down come as 20 posts and one summary")
  func restartReplaysTheDowntimeUpToTheCap() async throws {
    try await withLoopbackWorld { world in
      let transport = RecordingTransport()
      let first = try world.startBot(transport: transport)
      try await first.engine.subscriptions.subscribe(room: first.room, to: .bookmarks)
      await first.cycle()
      let before = try await world.addPosts(2, prefix: "Before the restart")
      await first.cycle()
      #expect(transport.sent.map(\.key) == before.map { "test|!room|post:\($0)" })
      // Queued but not sent when the bot stops.
      let queuedID = try await world.state.addPost(
        thread: LoopbackWorld.devThread, author: LoopbackWorld.poster, body: "Queued at shutdown")
      let queued = await first.engine.polling.poll(.bookmarks)
      #expect(queued.queued == 1)
      try await first.stop()

      // 30 posts while the bot is down; the default replay cap is 20.
      let downtime = try await world.addPosts(30, prefix: "While down")
      await world.state.clearRequests()

      let second = try world.startBot(transport: transport)
      let report = await second.cycle()
      let quiet = await second.cycle()

      #expect(report.succeeded, "\(report.error ?? "")")
      #expect(quiet.succeeded && quiet.newPosts == 0)
      let keys = transport.sent.map(\.key)
      #expect(Set(keys).count == keys.count, "a key was sent twice")
      let afterRestart = Array(transport.sent.dropFirst(2))
      #expect(afterRestart.count == 1 + 20 + 1)
      #expect(afterRestart.first?.key == "test|!room|post:\(queuedID)")
      #expect(afterRestart.dropFirst().prefix(20).map(\.key) == downtime.prefix(20).map { "test|!room|post:\($0)" })
      for (n, sent) in afterRestart.dropFirst().prefix(20).enumerated() {
        #expect(sent.message.text.contains("While down \(n + 1)\n"))
      }
      let summary = try #require(afterRestart.last)
      #expect(summary.message.text.contains("10 more new posts"), "\(summary.message.text)")
      #expect(summary.message.text.contains(await world.postLink(postID: downtime[29])))
      #expect(summary.key.contains("summary:3600001:"))
      #expect(try await second.rows().allSatisfy { $0.state == .delivered })
      // The session cookies were kept in the database: the second bot did not log in again.
      #expect(await world.requests(to: "/account.php").isEmpty)
      try await second.stop()
    }
  }

  @Test("a crash between send and acknowledgement resends the same row with the same idempotency key")
  func crashBetweenSendAndAcknowledgement() async throws {
    try await withLoopbackWorld { world in
      let dying = RecordingTransport()
      let first = try world.startBot(transport: dying)
      try await first.engine.subscriptions.subscribe(room: first.room, to: .bookmarks)
      await first.cycle()
      let delivered = try await world.addPosts(1, prefix: "Delivered")
      await first.cycle()
      let pending = try await world.addPosts(3, prefix: "In flight")
      #expect(await first.engine.polling.poll(.bookmarks).queued == 3)

      // The chat service takes the message, but the process dies before the acknowledgement comes back.
      dying.setHangs(true)
      var sends = dying.sends.makeAsyncIterator()
      let draining = Task { await first.dispatcher.drain() }
      _ = await sends.next()  // the "Delivered" send
      let inFlight = await sends.next()
      draining.cancel()
      _ = await draining.value
      #expect(inFlight?.key == "test|!room|post:\(pending[0])")
      try await first.stop()

      let fresh = RecordingTransport()
      let second = try world.startBot(transport: fresh)
      let rowsBefore = try await second.rows()
      #expect(rowsBefore.filter { $0.state == .pending }.count == 3)
      await second.dispatcher.drain()

      #expect(fresh.sent.map(\.key) == pending.map { "test|!room|post:\($0)" })
      #expect(fresh.sent.first?.key == inFlight?.key)
      #expect(!fresh.sent.contains { $0.key == "test|!room|post:\(delivered[0])" })
      let rows = try await second.rows()
      #expect(rows.count == 4)
      #expect(rows.allSatisfy { $0.state == .delivered })
      try await second.stop()
    }
  }
}
