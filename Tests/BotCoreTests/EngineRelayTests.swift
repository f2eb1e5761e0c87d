import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

@Suite("Engine relay")
struct EngineRelayTests {
  @Test("subscribing sends nothing already posted; new posts arrive once and in order")
  func noFloodThenInOrder() async throws {
    let h = try EngineHarness()
    h.forum.addThread("10", posts: 50)
    h.forum.addThread("11", posts: 3)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)

    await h.cycle()
    #expect(h.transport.sent.isEmpty)

    h.clock.advance(by: 60)
    let a = h.forum.addPost(to: "10", author: "alice", text: "first new")
    let b = h.forum.addPost(to: "10", author: "bob", text: "second new")
    let c = h.forum.addPost(to: "11", author: "carol", text: "third new")
    await h.cycle()
    await h.cycle()

    let keys = h.transport.sent.map(\.key)
    #expect(keys.count == 3)
    #expect(Set(keys).count == 3)
    let tenKeys = keys.filter { $0.hasSuffix(a.id) || $0.hasSuffix(b.id) }
    #expect(tenKeys == ["test|!room|post:\(a.id)", "test|!room|post:\(b.id)"])
    #expect(h.texts().contains { $0.contains("third new") })
    #expect(keys.contains("test|!room|post:\(c.id)"))
    #expect(try await h.rows().allSatisfy { $0.state == .delivered && $0.receipt != nil })
  }

  @Test("only changed threads are fetched: one request per bookmarks page plus one per changed thread")
  func minimalRequests() async throws {
    let h = try EngineHarness()
    for id in 1...100 { h.forum.addThread(String(id), posts: 2) }
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    let seeding = await h.engine.polling.poll(.bookmarks)
    #expect(seeding.requests == 3)
    #expect(h.forum.requests.allSatisfy { $0.hasPrefix("bookmarks") })

    h.forum.resetRequests()
    h.clock.advance(by: 60)
    h.forum.addPost(to: "7", author: "alice")
    h.forum.addPost(to: "42", author: "bob")
    let report = await h.engine.polling.poll(.bookmarks)
    #expect(report.requests == 5)
    #expect(report.changed == 2)
    #expect(h.forum.requests.filter { $0.hasPrefix("threadPage") }.sorted() == ["threadPage 42", "threadPage 7"])
  }

  @Test("a second engine on the same database file after a restart delivers nothing twice")
  func restartDeliversNothingTwice() async throws {
    let path = try EngineHarness.temporaryDatabasePath()
    defer { EngineHarness.removeTemporaryDirectory(of: path) }
    let clock = TestClock()
    let forum = TestForum(clock: clock)
    let transport = RecordingTransport()
    forum.addThread("10", posts: 5)

    do {
      let first = try EngineHarness(
        database: try BotDatabase(path: path), clock: clock, forum: forum, transport: transport)
      try await first.engine.subscriptions.subscribe(room: first.room, to: .bookmarks)
      await first.cycle()
      clock.advance(by: 60)
      forum.addPost(to: "10", author: "alice", text: "delivered before the restart")
      await first.cycle()
      clock.advance(by: 60)
      forum.addPost(to: "10", author: "bob", text: "queued before the restart")
      await first.engine.polling.poll(.bookmarks)  // queued, not sent: the process stops here
      try first.database.close()
    }

    let second = try EngineHarness(
      database: try BotDatabase(path: path), clock: clock, forum: forum, transport: transport)
    await second.cycle()
    await second.cycle()
    #expect(transport.sent.map(\.message.text).filter { $0.contains("before the restart") }.count == 2)
    #expect(Set(transport.sent.map(\.key)).count == transport.sent.count)
    clock.advance(by: 60)
    forum.addPost(to: "10", author: "carol", text: "after the restart")
    await second.cycle()
    #expect(transport.sent.count == 3)
  }

  @Test("after downtime a room gets its replay cap one by one, then one summary line with the rest counted")
  func downtimeCap() async throws {
    let h = try EngineHarness()
    h.forum.addThread("10", title: "Downtime thread", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()
    for n in 1...57 { h.forum.addPost(to: "10", author: n == 57 ? "last-author" : "user\(n % 5)", text: "missed \(n)") }
    await h.cycle()

    let texts = h.texts()
    #expect(texts.count == 21)
    #expect(texts[0].contains("missed 1"))
    #expect(texts[19].contains("missed 20"))
    #expect(texts[20].hasPrefix("37 more new posts in “Downtime thread”, latest by last-author: "))
    #expect(texts[20].contains("Downtime thread"))
    #expect(texts[20].contains("last-author"))
    #expect(texts.filter { $0.contains("missed 21") }.isEmpty)
  }

  @Test("watch seeds at the last post, bookmarks on the forum, backfills N; unwatch removes the bot's bookmark")
  func watchAndBackfill() async throws {
    let h = try EngineHarness()
    h.forum.addThread("77", title: "Watched", posts: 45, bookmarked: false)
    let result = try await h.engine.subscriptions.watch(threadID: "77", room: h.room, backfill: 3)
    #expect(result.addedBookmark)
    #expect(result.backfilled == 3)
    #expect(result.title == "Watched")
    #expect(h.forum.thread("77")?.isBookmarked == true)
    await h.cycle()
    #expect(
      h.texts().map { $0.contains("post 43") || $0.contains("post 44") || $0.contains("post 45") } == [
        true, true, true,
      ])

    h.forum.addPost(to: "77", author: "alice", text: "fresh")
    await h.cycle()
    #expect(h.texts().count == 4)
    #expect(h.texts().last?.contains("fresh") == true)

    let removed = try await h.engine.subscriptions.unwatch(threadID: "77", room: h.room)
    #expect(removed?.removedBookmark == true)
    #expect(h.forum.thread("77")?.isBookmarked == false)
  }

  @Test("star subscriptions only get threads with that star")
  func starSubscription() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1, star: .red)
    h.forum.addThread("2", posts: 1, star: .green)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .stars([.red]))
    await h.cycle()
    h.forum.addPost(to: "1", author: "a", text: "red post")
    h.forum.addPost(to: "2", author: "b", text: "green post")
    await h.cycle()
    #expect(h.texts().count == 1)
    #expect(h.texts().first?.contains("red post") == true)
  }

  @Test("filters: author include and exclude, keyword, OP only")
  func filters() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    let only = RoomRef(transport: "test", room: "!only-alice")
    let not = RoomRef(transport: "test", room: "!not-alice")
    let keyword = RoomRef(transport: "test", room: "!keyword")
    let op = RoomRef(transport: "test", room: "!op")
    try await h.engine.subscriptions.watch(
      threadID: "1", room: only, filters: SubscriptionFilters(includeAuthors: ["ALICE"]))
    try await h.engine.subscriptions.watch(
      threadID: "1", room: not, filters: SubscriptionFilters(excludeAuthors: ["alice"]))
    try await h.engine.subscriptions.watch(
      threadID: "1", room: keyword, filters: SubscriptionFilters(keywords: ["Goons"]))
    try await h.engine.subscriptions.watch(threadID: "1", room: op, filters: SubscriptionFilters(opOnly: true))
    await h.cycle()

    h.forum.addPost(to: "1", author: "alice", text: "hello goons")
    h.forum.addPost(to: "1", author: "bob", text: "nothing here")
    h.forum.addPost(to: "1", author: "op", text: "op speaks")
    h.forum.addPost(
      to: "1", author: "carol", body: [.quote(author: "x", postID: nil, [.text("goons in a quote")]), .text("reply")])
    await h.cycle()

    #expect(h.texts(room: only.room).count == 1)
    #expect(h.texts(room: only.room).first?.contains("hello goons") == true)
    #expect(h.texts(room: not.room).count == 3)
    #expect(h.texts(room: keyword.room).count == 1)
    #expect(h.texts(room: op.room).count == 1)
    #expect(h.texts(room: op.room).first?.contains("op speaks") == true)
  }

  @Test("why explains which subscription a delivered post came through")
  func why() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.watch(threadID: "1", room: h.room, filters: SubscriptionFilters(opOnly: true))
    await h.cycle()
    let post = h.forum.addPost(to: "1", author: "op", text: "by the op")
    let skipped = h.forum.addPost(to: "1", author: "rando", text: "not by the op")
    await h.cycle()

    let answer = try await h.engine.statusReports.why(postID: post.id, room: h.room)
    #expect(answer.entries.count == 1)
    #expect(answer.entries.first?.state == "delivered")
    #expect(answer.entries.first?.reason.contains("thread 1") == true)
    #expect(answer.threadID == "1")
    let missing = try await h.engine.statusReports.why(postID: skipped.id, room: h.room)
    #expect(missing.entries.isEmpty)
    #expect(missing.explanation != nil)
  }

  @Test("a thread nobody follows is not fetched; its cursor moves to the end")
  func unfollowedThreadsAreNotFetched() async throws {
    let h = try EngineHarness()
    h.forum.addThread("1", posts: 2)
    await h.engine.polling.poll(.bookmarks)
    h.forum.addPost(to: "1", author: "a")
    h.forum.resetRequests()
    await h.engine.polling.poll(.bookmarks)
    #expect(h.forum.requests == ["bookmarks 1"])
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    h.forum.addPost(to: "1", author: "b", text: "the only new one")
    await h.cycle()
    #expect(h.texts().count == 1)
    #expect(h.texts().first?.contains("the only new one") == true)
  }

  @Test("a thread is fetched once per change, even with sub-millisecond post times")
  func unchangedThreadIsNotFetchedAgain() async throws {
    let h = try EngineHarness(clock: TestClock(Date(timeIntervalSince1970: 1_736_158_200.123_456_7)))
    h.forum.addThread("1", posts: 1)
    try await h.engine.subscriptions.subscribe(room: h.room, to: .bookmarks)
    await h.cycle()
    h.clock.advance(by: 61.000_321)
    h.forum.addPost(to: "1", author: "alice")
    await h.cycle()
    h.forum.resetRequests()
    await h.cycle()
    #expect(h.forum.requests == ["bookmarks 1"])
    #expect(h.texts().count == 1)
  }
}
