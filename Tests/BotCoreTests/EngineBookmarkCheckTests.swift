import AwfulBotEngineTestKit
import AwfulBotTestKit
import BotStore
import ChatBridge
import ForumModel
import Foundation
import Testing

@testable import BotCore

/// Change detection from the top of the newest-first bookmarks list (issue 28): a check reads from page 1 down to
/// the first page with a settled thread, a full sweep reads the whole list on its schedule, and nothing is lost
/// between the two. Request counts, not times: speed belongs in `awfulbot-bench latency`.
@Suite("bookmarks: checks from the top and full sweeps")
struct EngineBookmarkCheckTests {
  /// `count` bookmarked threads of one post each, a minute apart, so the list has a strict order; the clock ends a
  /// minute after the newest.
  private static func addThreads(_ harness: EngineHarness, count: Int, posts: Int = 1) {
    for index in 1...count {
      harness.forum.addThread("\(index)", posts: posts)
      harness.clock.advance(by: 60)
    }
  }

  private static func bookmarkRequests(_ forum: TestForum) -> [String] {
    forum.requests.filter { $0.hasPrefix("bookmarks ") }
  }

  private static func threadRequests(_ forum: TestForum) -> [String] {
    forum.requests.filter { $0.hasPrefix("threadPage ") }
  }

  @Test("a quiet check costs one request, however many bookmarks")
  func quietCheckIsOneRequest() async throws {
    let harness = try EngineHarness()
    Self.addThreads(harness, count: 400)
    let seeding = await harness.cycle()
    #expect(seeding.fullSweep && seeding.listPages == 10)

    for _ in 1...3 {
      harness.forum.resetRequests()
      harness.clock.advance(by: 30)
      let quiet = await harness.cycle()
      #expect(quiet.succeeded && !quiet.fullSweep && quiet.changed == 0)
      #expect(harness.forum.requests == ["bookmarks 1"])
      #expect(quiet.requests == 1)
    }
  }

  @Test("100 moved threads: at most ceil(100 / 40) + 1 bookmarks pages, one thread page each, every post relayed")
  func movedThreadsCostTheirPages() async throws {
    let harness = try EngineHarness { $0.replayCap = 5 }
    Self.addThreads(harness, count: 400)
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .bookmarks)
    await harness.cycle()
    harness.forum.resetRequests()

    // The moved threads are spread over the whole list before they move to its top.
    let moved = stride(from: 4, through: 400, by: 4).map { "\($0)" }
    var posted: [String] = []
    for id in moved {
      harness.clock.advance(by: 1)
      posted.append(harness.forum.addPost(to: id, author: "poster", text: "news in \(id)").id)
    }
    let report = await harness.cycle()

    #expect(report.succeeded && !report.fullSweep)
    #expect(report.changed == 100 && report.newPosts == 100)
    #expect(Self.bookmarkRequests(harness.forum).count <= 100 / 40 + 2)
    #expect(Self.threadRequests(harness.forum).count == 100)
    #expect(harness.transport.sent(to: "!room").map(\.key) == posted.map { "test|!room|post:\($0)" })
  }

  @Test("a post deleted deep in the list and a bookmark added on the web: both taken up by the next full sweep")
  func fullSweepTakesUpWhatTheTopCannotShow() async throws {
    let harness = try EngineHarness()
    // "old" has three posts and sits on page 2; "web" is an old thread the account bookmarks on the web later.
    harness.forum.addThread("old", posts: 2)
    harness.forum.addThread("web", posts: 2, bookmarked: false)
    harness.clock.advance(by: 30)
    harness.forum.addPost(to: "old", author: "poster", text: "to be deleted")
    harness.clock.advance(by: 60)
    Self.addThreads(harness, count: 60)
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .bookmarks)
    await harness.cycle()

    // A moderator deletes the last post of "old": its reply count and last-post time go back.
    var old = try #require(harness.forum.thread("old"))
    let kept = Array(old.posts.dropLast())
    old.posts = kept
    harness.forum.add(old)
    var web = try #require(harness.forum.thread("web"))
    web.isBookmarked = true
    harness.forum.add(web)

    harness.clock.advance(by: 60)
    harness.forum.resetRequests()
    let check = await harness.cycle()
    #expect(!check.fullSweep && harness.forum.requests == ["bookmarks 1"])
    var stored = try await harness.database.read { tx in (try tx.thread(id: "old"), try tx.thread(id: "web")) }
    #expect(stored.0?.replyCount == 2 && stored.0?.cursorIndex == 3)
    #expect(stored.1 == nil)

    // An hour on, the check starts the full sweep after its own page, and the sweep reads the other a step later.
    harness.clock.advance(by: 3600)
    harness.forum.resetRequests()
    let starts = await harness.cycle()
    #expect(starts.succeeded && !starts.fullSweep && harness.forum.requests == ["bookmarks 1"])
    let sweep = await harness.sweep()
    #expect(sweep.map(\.listPages) == [1] && sweep.last?.fullSweep == true)
    #expect(harness.forum.requests == ["bookmarks 1", "bookmarks 2"])
    stored = try await harness.database.read { tx in (try tx.thread(id: "old"), try tx.thread(id: "web")) }
    #expect(stored.0?.replyCount == 1 && stored.0?.cursorIndex == 2)
    #expect(stored.0?.lastPostAt == kept.last?.date)
    #expect(stored.1?.isBookmarked == true && stored.1?.cursorIndex == 2)
    #expect(harness.transport.sent.isEmpty)

    // The next post of "old" takes the freed index 3; both new posts reach the room.
    harness.clock.advance(by: 60)
    let inOld = harness.forum.addPost(to: "old", author: "poster", text: "after the deletion")
    harness.clock.advance(by: 1)
    let inWeb = harness.forum.addPost(to: "web", author: "poster", text: "in the web bookmark")
    #expect(inOld.index == 3)
    await harness.cycle()
    let keys = harness.transport.sent(to: "!room").map(\.key)
    #expect(keys == ["test|!room|post:\(inOld.id)", "test|!room|post:\(inWeb.id)"])
  }

  @Test("posts deleted and new ones made between two checks: the new ones are told apart by id, none lost")
  func deletionHiddenByNewPosts() async throws {
    let (harness, relayed) = try await Self.threadWithOneRelayed(after: 2)

    // The relayed post and the one before it go; two new ones come: the list shows as many posts as before.
    var thread = try #require(harness.forum.thread("1"))
    thread.posts = Array(thread.posts.prefix(1))
    harness.forum.add(thread)
    harness.clock.advance(by: 60)
    let first = harness.forum.addPost(to: "1", author: "poster", text: "new one")
    let second = harness.forum.addPost(to: "1", author: "poster", text: "new two")
    #expect(second.index == 3)
    await harness.cycle()
    #expect(
      harness.transport.sent.map(\.key)
        == ["test|!room|post:\(relayed.id)", "test|!room|post:\(first.id)", "test|!room|post:\(second.id)"])
    let stored = try await harness.database.read { tx in try tx.thread(id: "1") }
    #expect(stored?.cursorIndex == 3 && stored?.cursorPostID == second.id)
  }

  /// Thread "1" of `posts` posts, followed by the room, and one more post relayed: the cursor knows its post's id.
  private static func threadWithOneRelayed(after posts: Int) async throws -> (EngineHarness, Post) {
    let harness = try EngineHarness()
    harness.forum.addThread("1", posts: posts)
    harness.clock.advance(by: 60)
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .bookmarks)
    await harness.cycle()
    let relayed = harness.forum.addPost(to: "1", author: "poster", text: "relayed")
    harness.clock.advance(by: 60)
    await harness.cycle()
    #expect(harness.transport.sent.map(\.key) == ["test|!room|post:\(relayed.id)"])
    return (harness, relayed)
  }

  /// Deletes the posts at `indexes` as a moderator does: the later posts move up, one index per deleted post.
  private static func deletePosts(_ harness: EngineHarness, thread threadID: String, at indexes: Set<Int>) throws {
    var thread = try #require(harness.forum.thread(threadID))
    thread.posts = thread.posts.filter { !indexes.contains($0.index) }.enumerated().map { offset, post in
      var moved = post
      moved.index = offset + 1
      return moved
    }
    harness.forum.add(thread)
  }

  @Test("posts deleted before the cursor and more made: the thread looks longer by the difference, none lost")
  func fewerDeletedThanMade() async throws {
    let (harness, relayed) = try await Self.threadWithOneRelayed(after: 10)

    // Two old posts go and three come: the list shows one post more than the cursor, at index 12.
    try Self.deletePosts(harness, thread: "1", at: [3, 4])
    let made = (1...3).map { harness.forum.addPost(to: "1", author: "poster", text: "new \($0)") }
    #expect(made.map(\.index) == [10, 11, 12])
    harness.clock.advance(by: 60)
    harness.forum.resetRequests()
    await harness.cycle()
    #expect(harness.transport.sent.map(\.key) == ([relayed] + made).map { "test|!room|post:\($0.id)" })
    #expect(Self.threadRequests(harness.forum) == ["threadPage 1"])
    let stored = try await harness.database.read { tx in try tx.thread(id: "1") }
    #expect(stored?.cursorIndex == 12 && stored?.cursorPostID == made[2].id)

    // The next post is read past the new cursor as usual.
    let next = harness.forum.addPost(to: "1", author: "poster", text: "next")
    harness.clock.advance(by: 60)
    await harness.cycle()
    #expect(harness.transport.sent.map(\.key).last == "test|!room|post:\(next.id)")
    #expect(harness.transport.sent.count == 5)
  }

  @Test("the cursor's post last on its page, posts before it deleted: the new ones are read back across the page break")
  func deletionAcrossPageBreak() async throws {
    let (harness, relayed) = try await Self.threadWithOneRelayed(after: 39)
    #expect(relayed.index == 40)

    // Two go, three come: the new posts sit at 39 and 40 on page 1 and at 41 on page 2.
    try Self.deletePosts(harness, thread: "1", at: [5, 6])
    let made = (1...3).map { harness.forum.addPost(to: "1", author: "poster", text: "new \($0)") }
    #expect(made.map(\.index) == [39, 40, 41])
    harness.clock.advance(by: 60)
    await harness.cycle()
    #expect(harness.transport.sent.map(\.key) == ([relayed] + made).map { "test|!room|post:\($0.id)" })
    let stored = try await harness.database.read { tx in try tx.thread(id: "1") }
    #expect(stored?.cursorIndex == 41 && stored?.cursorPostID == made[2].id)
  }

  @Test("a listed thread the forum will not show is skipped without failing the poll; its posts come when it is back")
  func unreadableThreadSkipped() async throws {
    let log = LogCapture()
    let harness = try EngineHarness(logger: .capturing(into: log))
    Self.addThreads(harness, count: 2)
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .bookmarks)
    await harness.cycle()

    // Thread 2 gets a post first, then thread 1: the list shows 1 above 2, and 1 cannot be read.
    let inTwo = harness.forum.addPost(to: "2", author: "poster", text: "in two")
    harness.clock.advance(by: 60)
    let hidden = harness.forum.addPost(to: "1", author: "poster", text: "while hidden")
    harness.forum.setUnreadable("1")
    harness.clock.advance(by: 60)
    let report = await harness.cycle()
    #expect(report.succeeded, "one unreadable thread does not fail the poll")
    #expect(harness.transport.sent.map(\.key) == ["test|!room|post:\(inTwo.id)"])
    #expect(log.messages.contains("bookmarked thread cannot be read: its posts wait until it can"))

    // Not asked for again while it does not move.
    harness.clock.advance(by: 60)
    harness.forum.resetRequests()
    await harness.cycle()
    #expect(Self.threadRequests(harness.forum).isEmpty)

    // Readable again with a new post: everything since the last relayed post arrives.
    harness.forum.setUnreadable("1", false)
    let back = harness.forum.addPost(to: "1", author: "poster", text: "back")
    harness.clock.advance(by: 60)
    await harness.cycle()
    #expect(
      harness.transport.sent.map(\.key)
        == ["test|!room|post:\(inTwo.id)", "test|!room|post:\(hidden.id)", "test|!room|post:\(back.id)"])
  }

  @Test("with a full-sweep period of zero every cycle reads the whole list (the schedule before issue 28)")
  func zeroPeriodSweepsEveryCycle() async throws {
    let harness = try EngineHarness { $0.bookmarksFullSweepInterval = .zero }
    Self.addThreads(harness, count: 85)
    await harness.cycle()
    harness.forum.resetRequests()
    let report = await harness.cycle()
    #expect(report.fullSweep && harness.forum.requests == ["bookmarks 1", "bookmarks 2", "bookmarks 3"])
  }

  @Test("the hourly sweep goes a page at a time: a check between its pages relays at once, and it goes on after")
  func sweepInterleavesWithChecks() async throws {
    let harness = try EngineHarness()
    Self.addThreads(harness, count: 400)
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .bookmarks)
    await harness.cycle()
    #expect(await harness.engine.polling.sweepBookmarks() == nil)

    harness.clock.advance(by: 3600)
    harness.forum.resetRequests()
    let sweepStart = harness.clock.now()
    let starts = await harness.cycle()
    #expect(starts.succeeded && !starts.fullSweep && harness.forum.requests == ["bookmarks 1"])
    for _ in 1...3 { await harness.engine.polling.sweepBookmarks() }
    #expect(harness.forum.requests == ["bookmarks 1", "bookmarks 2", "bookmarks 3", "bookmarks 4"])
    #expect(try await harness.database.read { tx in try tx.bookmarksSweep() }?.nextPage == 5)

    // A post in a thread the sweep has not reached: the next check finds it at the top, one page and its thread.
    harness.forum.resetRequests()
    harness.clock.advance(by: 10)
    let post = harness.forum.addPost(to: "3", author: "poster", text: "while the sweep runs")
    let check = await harness.cycle()
    #expect(check.changed == 1 && harness.forum.requests == ["bookmarks 1", "threadPage 3"])
    #expect(harness.transport.sent(to: "!room").map(\.key) == ["test|!room|post:\(post.id)"])

    harness.forum.resetRequests()
    let rest = await harness.sweep()
    #expect(rest.map(\.listPages) == Array(repeating: 1, count: 6) && rest.allSatisfy(\.succeeded))
    #expect(rest.map(\.fullSweep) == Array(repeating: false, count: 5) + [true])
    #expect(harness.forum.requests == (5...10).map { "bookmarks \($0)" })
    #expect(harness.transport.sent.count == 1)
    let mark = try await harness.database.read { tx in
      try ThreadListMark.load(in: tx, key: ThreadListMark.bookmarksKey)
    }
    #expect(mark?.lastFullSweep == sweepStart)
    let threads = try await harness.database.read { tx in try tx.bookmarkedThreads() }
    #expect(threads.count == 400)

    // Not due again until an hour after it began.
    harness.forum.resetRequests()
    harness.clock.advance(by: 30)
    await harness.cycle()
    #expect(await harness.engine.polling.sweepBookmarks() == nil)
    #expect(harness.forum.requests == ["bookmarks 1"])
  }

  @Test("a bookmark removed on the web is confirmed on its page before the sweep drops it; one that slipped stays")
  func removedBookmarksAreConfirmed() async throws {
    let harness = try EngineHarness()
    // 85 threads, newest first: page 1 is 85…46, page 2 is 45…6, page 3 is 5…1.
    Self.addThreads(harness, count: 85)
    await harness.cycle()
    func unbookmark(_ id: String) throws {
      var thread = try #require(harness.forum.thread(id))
      thread.isBookmarked = false
      harness.forum.add(thread)
    }

    try unbookmark("3")
    harness.clock.advance(by: 3600)
    await harness.cycle()
    let pageTwo = await harness.engine.polling.sweepBookmarks()
    #expect(pageTwo?.succeeded == true && pageTwo?.fullSweep == false)
    // Removed on page 1, already read: "5", first of page 3, moves up to page 2, already read too.
    try unbookmark("50")
    harness.forum.resetRequests()
    let rest = await harness.sweep()
    #expect(harness.forum.requests == ["bookmarks 3", "threadPage 5", "threadPage 3"])
    #expect(rest.map(\.fullSweep) == [false, false, true])
    let stored = try await harness.database.read { tx in
      try ["3", "5", "50"].map { try tx.thread(id: $0)?.isBookmarked }
    }
    // "50" was listed when the sweep began: the next sweep finds it gone.
    #expect(stored == [false, true, true])

    harness.clock.advance(by: 3600)
    await harness.cycle()
    harness.forum.resetRequests()
    await harness.sweep()
    #expect(harness.forum.requests == ["bookmarks 2", "bookmarks 3", "threadPage 50"])
    #expect(try await harness.database.read { tx in try tx.thread(id: "50")?.isBookmarked } == false)
  }

  @Test("an account longer than one poll may read: the sweep reads the rest, and a post past the bound is relayed")
  func longAccountIsReadToTheEnd() async throws {
    // Two pages a poll, five pages of bookmarks (200 threads; "1" is the oldest, at the end of page 5).
    let harness = try EngineHarness { $0.maximumBookmarkPages = 2 }
    Self.addThreads(harness, count: 200)
    try await harness.engine.subscriptions.subscribe(room: harness.room, to: .bookmarks)
    let first = await harness.cycle()
    #expect(first.succeeded && !first.fullSweep && first.listPages == 2)
    let rest = await harness.sweep()
    #expect(rest.map(\.listPages) == [1, 1, 1] && rest.last?.fullSweep == true)
    #expect(try await harness.database.read { tx in try tx.bookmarkedThreads().count } == 200)

    harness.clock.advance(by: 30)
    let post = harness.forum.addPost(to: "1", author: "poster", text: "at the very end of the list")
    let check = await harness.cycle()
    #expect(check.changed == 1)
    #expect(harness.transport.sent(to: "!room").map(\.key) == ["test|!room|post:\(post.id)"])
  }
}
