import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// Summary mode on transports that can edit: a thread that keeps getting posts updates its burst message (an edit
/// with the running count) instead of adding a message per poll cycle.
@Suite("Engine summary edits")
struct EngineSummaryEditTests {
  static let editing = ChatCapabilities(edits: true)

  /// A room in summary mode (more than 2 new posts become one message) following thread 1, cursor seeded.
  static func room(
    database: BotDatabase? = nil, clock: TestClock = TestClock(), forum: TestForum? = nil,
    capabilities: ChatCapabilities = editing, seed: Bool = true
  ) async throws -> EngineHarness {
    let h = try EngineHarness(
      database: database, clock: clock, forum: forum, transport: RecordingTransport(capabilities: capabilities))
    if seed {
      h.forum.addThread("1", title: "Busy thread", posts: 1)
      h.forum.addThread("2", title: "Other thread", posts: 1)
      try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
      try await h.engine.roomSettings.update(room: h.room) { $0.mode = .summary(threshold: 2) }
      await h.cycle()
    }
    return h
  }

  /// Adds posts by these authors to a thread and runs one poll-and-send cycle.
  static func burst(_ h: EngineHarness, thread: String = "1", _ authors: [String]) async {
    for author in authors { h.forum.addPost(to: thread, author: author) }
    await h.cycle()
  }

  @Test("a second burst edits the first message with the running count; a third still edits the first")
  func secondBurstEdits() async throws {
    let h = try await Self.room()
    await Self.burst(h, ["alice", "bob", "alice"])
    let first = try #require(h.transport.sent.first)
    #expect(first.message.text.hasPrefix("3 new posts in “Busy thread”"))
    #expect(first.message.replaces == nil)

    h.clock.advance(by: 5 * 60)
    await Self.burst(h, ["carol", "dave", "alice", "erin"])
    #expect(h.transport.sent.count == 2)
    let edit = try #require(h.transport.sent.last)
    #expect(edit.message.replaces == "receipt-1")
    #expect(edit.message.text.hasPrefix("7 new posts in “Busy thread” by alice, bob, carol and 2 others"))
    #expect(edit.message.text.contains("latest by erin"))
    guard case .summary(let summary) = edit.message.content else {
      Issue.record("the edit is not a summary")
      return
    }
    #expect(summary.count == 7)
    #expect(edit.key != first.key, "each row keeps its own idempotency key")

    h.clock.advance(by: 5 * 60)
    await Self.burst(h, ["frank", "gina", "hank"])
    let again = try #require(h.transport.sent.last)
    #expect(again.message.replaces == "receipt-1", "an edit points at the original message, not at an edit")
    #expect(again.message.text.hasPrefix("10 new posts"))

    let rows = try await h.rows()
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { $0.state == .delivered })
    #expect(Set(rows.map(\.idempotencyKey)).count == 3)
  }

  @Test("a relayed message in between: the next burst is a new message")
  func messageInBetween() async throws {
    let h = try await Self.room()
    await Self.burst(h, ["alice", "bob", "carol"])
    await Self.burst(h, ["dave"])  // one post: relayed on its own
    await Self.burst(h, ["erin", "frank", "gina"])
    let sent = h.transport.sent
    #expect(sent.count == 3)
    #expect(sent.map(\.message.replaces) == [nil, nil, nil])
    #expect(sent.last?.message.text.hasPrefix("3 new posts in “Busy thread”") == true)
  }

  @Test("a summary of another thread in between: the next burst is a new message")
  func otherThreadInBetween() async throws {
    let h = try await Self.room()
    await Self.burst(h, ["alice", "bob", "carol"])
    await Self.burst(h, thread: "2", ["dave", "erin", "frank"])
    await Self.burst(h, ["gina", "hank", "ian"])
    let sent = h.transport.sent
    #expect(sent.count == 3)
    #expect(sent.map(\.message.replaces) == [nil, nil, nil])
    #expect(sent[1].message.text.contains("Other thread"))
    #expect(sent[2].message.text.hasPrefix("3 new posts in “Busy thread”"))
  }

  @Test("a transport without edits gets a new message per burst, counting only that burst")
  func transportWithoutEdits() async throws {
    let h = try await Self.room(capabilities: .plainText)
    await Self.burst(h, ["alice", "bob", "carol"])
    await Self.burst(h, ["dave", "erin", "frank", "gina"])
    let sent = h.transport.sent
    #expect(sent.count == 2)
    #expect(sent.map(\.message.replaces) == [nil, nil])
    #expect(sent[1].message.text.hasPrefix("4 new posts"))
  }

  @Test("past the window from the burst's first message, a new burst starts with a new message")
  func pastTheWindow() async throws {
    let h = try await Self.room()
    await Self.burst(h, ["alice", "bob", "carol"])
    h.clock.advance(by: 20 * 60)
    await Self.burst(h, ["dave", "erin", "frank"])
    #expect(h.transport.sent.last?.message.replaces == "receipt-1")
    // 35 minutes after the first message: too old to edit, even though the last edit is recent.
    h.clock.advance(by: 15 * 60)
    await Self.burst(h, ["gina", "hank", "ian"])
    let fresh = try #require(h.transport.sent.last)
    #expect(fresh.message.replaces == nil)
    #expect(fresh.message.text.hasPrefix("3 new posts"))
    // The new message starts the next burst.
    h.clock.advance(by: 60)
    await Self.burst(h, ["jane", "kim", "lou"])
    #expect(h.transport.sent.last?.message.replaces == "receipt-3")
    #expect(h.transport.sent.last?.message.text.hasPrefix("6 new posts") == true)
  }

  @Test("an old summary (past the window) is not edited")
  func oldSummary() async throws {
    let h = try await Self.room()
    await Self.burst(h, ["alice", "bob", "carol"])
    h.clock.advance(by: 31 * 60)
    await Self.burst(h, ["dave", "erin", "frank"])
    #expect(h.transport.sent.map(\.message.replaces) == [nil, nil])
    #expect(h.transport.sent.last?.message.text.hasPrefix("3 new posts") == true)
  }

  @Test("a summary that failed to send is not edited")
  func failedSummary() async throws {
    let h = try await Self.room()
    h.transport.fail(room: h.room.room, with: [.permanent(reason: "forbidden")])
    await Self.burst(h, ["alice", "bob", "carol"])
    await Self.burst(h, ["dave", "erin", "frank"])
    #expect(h.transport.sent.count == 1)
    #expect(h.transport.sent.first?.message.replaces == nil)
    #expect(h.transport.sent.first?.message.text.hasPrefix("3 new posts") == true)
  }

  @Test("a restart between two bursts still edits, with the count kept in the store")
  func restartBetweenBursts() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    let first = try await Self.room(database: try BotDatabase(path: path), clock: clock, forum: forum)
    await Self.burst(first, ["alice", "bob", "carol"])
    #expect(first.transport.sent.count == 1)
    try first.database.close()

    clock.advance(by: 60)
    let second = try await Self.room(database: try BotDatabase(path: path), clock: clock, forum: forum, seed: false)
    await Self.burst(second, ["dave", "erin", "frank", "gina"])
    let edit = try #require(second.transport.sent.first)
    #expect(second.transport.sent.count == 1)
    #expect(edit.message.replaces == "receipt-1")
    #expect(edit.message.text.hasPrefix("7 new posts"))
  }

  @Test("a crash while the edit is in flight resends the same edit, counted once")
  func crashDuringEdit() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    let first = try await Self.room(database: try BotDatabase(path: path), clock: clock, forum: forum)
    await Self.burst(first, ["alice", "bob", "carol"])
    forum.addPost(to: "1", author: "dave")
    forum.addPost(to: "1", author: "erin")
    forum.addPost(to: "1", author: "frank")
    await first.engine.polling.poll(.bookmarks)

    first.transport.setHangs(true)
    let drain = Task { await first.dispatcher.drain() }
    var iterator = first.transport.sends.makeAsyncIterator()
    _ = await iterator.next()  // the first summary, sent before the hang was set
    let inFlight = try #require(await iterator.next())
    drain.cancel()  // the process dies before `send` returns
    _ = await drain.value
    try first.database.close()
    #expect(inFlight.message.replaces == "receipt-1")

    // Past the window by now: the stored decision stands, so the resend is the same edit, not a recount.
    clock.advance(by: 40 * 60)
    let second = try await Self.room(database: try BotDatabase(path: path), clock: clock, forum: forum, seed: false)
    await second.dispatcher.drain()
    let resent = try #require(second.transport.sent.first)
    #expect(second.transport.sent.count == 1)
    #expect(resent.key == inFlight.key)
    #expect(resent.message == inFlight.message)
    #expect(resent.message.text.hasPrefix("6 new posts"))
    #expect(try await second.rows().allSatisfy { $0.state == .delivered })
  }

  /// A row as schema 1 stored it: rendered text.
  static let schemaOneRow =
    #"{"kind":"relay","text":"3 new posts in “Busy thread”","link":"https://x/p","threadKey":"1"}"#

  @Test("payloads stay readable: schema 1 rows decode as legacy text, schema 3 rows round-trip with their burst")
  func payloadCompatibility() throws {
    let oldPayload = try RelayCoding.decode(OutboxPayload.self, from: Self.schemaOneRow)
    #expect(
      oldPayload.message
        == OutgoingMessage(
          .legacy(text: "3 new posts in “Busy thread”", html: nil, link: "https://x/p"), threadKey: "1"))
    #expect(oldPayload.summaryBurst == nil)

    let message = OutgoingMessage(
      .summary(
        PostSummary(
          threadTitle: "T", threadLink: "https://x/t", count: 3, authors: ["a", "b", "a"], latestAuthor: "a",
          latestLink: "https://x/p", afterReplayCap: false)), threadKey: "1")
    #expect(try RelayCoding.decode(OutgoingMessage.self, from: try RelayCoding.encode(message)) == message)
    #expect(try RelayCoding.encode(message).contains(#""v":3"#))

    let burst = SummaryBurst(
      threadID: "1", threadTitle: "T", count: 3, authors: ["a", "b", "a"], latestPostID: "9", latestAuthor: "a",
      edit: SummaryEdit(
        original: "$e", originalDeliveredAt: Date(timeIntervalSince1970: 1000), total: 5, authors: ["a"]))
    let new = try RelayCoding.encode(OutboxPayload(message: message, summaryBurst: burst))
    #expect(try RelayCoding.decode(OutgoingMessage.self, from: new) == message)
    #expect(
      try RelayCoding.decode(OutboxPayload.self, from: new) == OutboxPayload(message: message, summaryBurst: burst))
    #expect(new.contains("\"summaryBurst\""))
  }

  @Test("an old summary row without a burst is followed by a new message")
  func oldRowWithoutBurst() async throws {
    let h = try await Self.room()
    let now = h.clock.now()
    try await h.database.write { tx in
      var row = OutboxRecord(
        transport: "test", room: "!room", kind: .summary,
        payload: Self.schemaOneRow,
        idempotencyKey: "old-summary", createdAt: now, state: .delivered, deliveredAt: now, receipt: "$old",
        threadID: "1")
      try tx.enqueue(&row)
      try tx.markDelivered(id: row.id!, receipt: "$old", at: now)
    }
    await Self.burst(h, ["alice", "bob", "carol"])
    #expect(h.transport.sent.map(\.message.replaces) == [nil])
    #expect(h.transport.sent.first?.message.text.hasPrefix("3 new posts") == true)
  }
}
