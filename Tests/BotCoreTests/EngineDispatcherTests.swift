import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Engine dispatcher")
struct EngineDispatcherTests {
  /// A room with three queued posts.
  private func queued(_ h: EngineHarness, rooms: [RoomRef]) async throws {
    h.forum.addThread("1", posts: 1)
    for room in rooms { try await h.engine.subscriptions.watch(threadID: "1", room: room) }
    await h.engine.polling.poll(.bookmarks)
    for n in 1...3 { h.forum.addPost(to: "1", author: "user", text: "message \(n)") }
    await h.engine.polling.poll(.bookmarks)
  }

  @Test("retryable failures back off (honouring the service's delay) and keep the room's order")
  func retriesKeepOrder() async throws {
    let h = try EngineHarness()
    let other = RoomRef(transport: "test", room: "!other")
    try await queued(h, rooms: [h.room, other])
    h.transport.fail(room: h.room.room, with: [.retryable(reason: "rate limited", after: .seconds(5))])

    let first = await h.dispatcher.drain()
    #expect(first.retried == 1)
    #expect(h.texts().isEmpty)  // the head failed; later rows wait behind it
    #expect(h.texts(room: other.room).count == 3)  // another room is not held up
    #expect(first.nextRetry == h.clock.now().addingTimeInterval(5))

    await h.dispatcher.drain()
    #expect(h.texts().isEmpty)  // not due yet
    h.clock.advance(by: 5)
    await h.dispatcher.drain()
    #expect(h.texts() == h.texts(room: other.room))
    #expect(h.texts().map { $0.contains("message 1") } == [true, false, false])
    let head = try #require(try await h.rows().first { $0.room == h.room.room })
    #expect(head.attempts == 2)
    #expect(head.state == .delivered)
  }

  @Test("a permanent failure fails the row with the reason and the room moves on")
  func permanentFailure() async throws {
    let h = try EngineHarness()
    try await queued(h, rooms: [h.room])
    h.transport.fail(room: h.room.room, with: [.permanent(reason: "forbidden in this room")])
    let report = await h.dispatcher.drain()
    #expect(report.failed == 1)
    #expect(h.texts().count == 2)
    let status = try await h.engine.statusReports.status(room: h.room)
    #expect(status.failed == 1)
    #expect(status.recentFailures.first?.contains("forbidden in this room") == true)
  }

  @Test("after N retryable failures a row is dead-lettered and counted, never dropped")
  func deadLetter() async throws {
    let h = try EngineHarness { $0.maximumDeliveryAttempts = 3 }
    try await queued(h, rooms: [h.room])
    h.transport.fail(room: h.room.room, with: Array(repeating: .retryable(reason: "down", after: nil), count: 3))
    for _ in 0..<3 {
      await h.dispatcher.drain()
      h.clock.advance(by: 3600)
    }
    await h.dispatcher.drain()
    let health = try await h.engine.statusReports.health()
    #expect(health.deadLetters == 1)
    #expect(!health.isHealthy)
    #expect(h.texts().count == 2)
    let dead = try #require(try await h.rows().first { $0.state == .dead })
    #expect(dead.attempts == 3)
    #expect(dead.lastError == "down")
  }

  @Test("a room whose reader is away waits without using up attempts, and gets everything in order when they return")
  func unreachableWaits() async throws {
    let h = try EngineHarness { $0.maximumDeliveryAttempts = 3 }
    try await queued(h, rooms: [h.room])
    h.transport.fail(
      room: h.room.room,
      with: Array(repeating: .unreachable(reason: "nobody logged in as alice", after: .seconds(20)), count: 10))
    for _ in 0..<10 {
      await h.dispatcher.drain()
      h.clock.advance(by: 20)
    }
    let waiting = try #require(try await h.rows().first { $0.room == h.room.room })
    #expect(waiting.state == .pending, "ten tries past a limit of three: still waiting, not dead")
    #expect(waiting.attempts == 0)
    #expect(waiting.lastError == "nobody logged in as alice")
    await h.dispatcher.drain()
    #expect(h.texts().map { $0.contains("message 1") } == [true, false, false])
    #expect(try await h.engine.statusReports.health().deadLetters == 0)
  }

  @Test("a crash between send and acknowledgement resends the same row with the same idempotency key")
  func crashBetweenSendAndAck() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    let hanging = RecordingTransport()
    hanging.setHangs(true)
    let first = try EngineHarness(database: try BotDatabase(path: path), clock: clock, forum: forum, transport: hanging)
    try await queued(first, rooms: [first.room])

    let drain = Task { await first.dispatcher.drain() }
    var iterator = hanging.sends.makeAsyncIterator()
    let inFlight = try #require(await iterator.next())
    drain.cancel()  // the process dies before `send` returns
    _ = await drain.value
    try first.database.close()

    let restarted = RecordingTransport()
    let second = try EngineHarness(
      database: try BotDatabase(path: path), clock: clock, forum: forum, transport: restarted)
    await second.dispatcher.drain()
    #expect(restarted.sent.first?.key == inFlight.key)
    #expect(restarted.sent.count == 3)
    #expect(try await second.rows().allSatisfy { $0.state == .delivered })
  }

  @Test("rooms longer than a read batch go out whole, in order, each row once and marked delivered with its receipt")
  func longQueuesAcrossBatches() async throws {
    let h = try EngineHarness()
    let other = RoomRef(transport: "test", room: "!other")
    let count = RoomSendQueue.batchSize * 2 + 5
    h.forum.addThread("1", posts: 1)
    for room in [h.room, other] {
      try await h.engine.subscriptions.watch(threadID: "1", room: room)
      _ = try await h.engine.roomSettings.update(room: room) { $0.replayCap = count }
    }
    await h.engine.polling.poll(.bookmarks)
    for n in 1...count { h.forum.addPost(to: "1", author: "user", text: "message \(n).") }
    await h.engine.polling.poll(.bookmarks)

    let report = await h.dispatcher.drain()
    #expect(report.delivered == count * 2)
    for room in [h.room.room, other.room] {
      let sent = h.transport.sent(to: room)
      #expect(sent.enumerated().allSatisfy { $0.element.message.text.contains("message \($0.offset + 1).") })
      #expect(Set(sent.map(\.key)).count == count)
    }
    let rows = try await h.rows()
    #expect(rows.count == count * 2)
    #expect(rows.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
    #expect(Set(rows.compactMap(\.receipt)).count == count * 2)
  }

  @Test("each row after a room's first is handed to the transport to prepare, as the same message it then sends")
  func nextRowPrepared() async throws {
    let h = try EngineHarness()
    try await queued(h, rooms: [h.room])
    h.transport.fail(room: h.room.room, with: [.retryable(reason: "rate limited", after: .seconds(5))])

    await h.dispatcher.drain()
    #expect(h.transport.sent.isEmpty)
    h.clock.advance(by: 5)
    let report = await h.dispatcher.drain()
    #expect(report.delivered == 3)

    let sent = h.transport.sent(to: h.room.room)
    #expect(sent.map(\.message.text).map { $0.contains("message 1") } == [true, false, false])
    // The failed first pass prepared message 2 too; the second pass prepares 2 and 3 while 1 and 2 go out.
    let prepared = h.transport.prepared
    #expect(prepared.map(\.key) == [sent[1].key, sent[1].key, sent[2].key])
    for item in prepared {
      #expect(sent.first { $0.key == item.key }?.message == item.message)
    }
  }

  @Test("a running dispatcher wakes when rows are queued, and stops on shutdown")
  func wakesPromptly() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.watch(threadID: "1", room: h.room)
    await h.engine.polling.poll(.bookmarks)
    let dispatcher = Dispatcher(engine: h.engine, transport: h.transport, idleWait: .seconds(3600))
    let running = Task { try await dispatcher.run() }

    h.forum.addPost(to: "1", author: "alice", text: "wake up")
    await h.engine.polling.poll(.bookmarks)
    var iterator = h.transport.sends.makeAsyncIterator()
    let sent = try #require(await iterator.next())
    #expect(sent.message.text.contains("wake up"))
    running.cancel()
    try await running.value
  }
}
