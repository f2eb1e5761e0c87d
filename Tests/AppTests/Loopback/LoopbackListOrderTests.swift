import AwfulBotTestKit
import BotStore
import ChatBridge
import FakeForum
import Foundation
import Testing

@testable import BotCore

/// Reading the newest-first lists from the top (issue 28) on the real stack: the emulator's bookmarks page and
/// forum lists over loopback, the forum client, the engine on a SQLite file.
@Suite("Loopback: lists read from the top")
struct LoopbackListOrderTests {
  /// 50 old bookmarked threads in GBS (2023, before the demo seed's 2024 threads), so the list has two pages.
  private static func addOldBookmarks(_ world: LoopbackWorld, count: Int = 50) async throws -> [Int] {
    try await world.state.addGeneratedThreads(
      count: count, forum: 273, author: LoopbackWorld.poster, postsPerThread: 2, titlePrefix: "Old thread",
      bookmarkedBy: LoopbackWorld.botUserID, startDate: Date(timeIntervalSince1970: 1_690_000_000))
  }

  @Test("a list out of order falls back to a full sweep, said once; nothing is lost across it and the hourly sweep")
  func fallBackAndSweepLoseNothing() async throws {
    try await withLoopbackWorld { world in
      let old = try await Self.addOldBookmarks(world)
      let clock = TestClock()
      let log = LogCapture()
      let bot = try world.startBot(logger: .capturing(into: log), now: { clock.now() })
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      let seeding = await bot.cycle()
      #expect(seeding.succeeded && seeding.fullSweep && seeding.listPages == 2)

      var posted: [Int] = []
      func post(_ thread: Int, _ text: String) async throws {
        posted.append(try await world.state.addPost(thread: thread, author: LoopbackWorld.poster, body: text))
      }
      func cycle() async -> PollReport {
        clock.advance(by: 30)
        return await bot.cycle()
      }

      // In order: a check from the top finds a thread from the bottom of page 2 and the dev thread.
      try await post(old[0], "from the bottom")
      try await post(LoopbackWorld.devThread, "in the dev thread")
      let check = await cycle()
      #expect(check.succeeded && !check.fullSweep && !check.listUnordered && check.changed == 2)

      // Sorted by title (a preference on the account): the poll reads all of it, and says so once.
      try await world.state.setBookmarkOrder(user: LoopbackWorld.botUserID, .title)
      try await post(old[10], "while sorted by title")
      let fellBack = await cycle()
      #expect(fellBack.succeeded && fellBack.fullSweep && fellBack.listUnordered && fellBack.changed == 1)
      try await post(old[20], "still sorted by title")
      try await post(old[21], "and another")
      let again = await cycle()
      #expect(again.fullSweep && again.listUnordered && again.changed == 2)
      #expect(again.pace?.reason == .unordered)

      // Back to the forum's order: the next poll still reads it all and finds it in order, then checks resume.
      try await world.state.setBookmarkOrder(user: LoopbackWorld.botUserID, .lastPost)
      try await post(old[30], "order is back")
      let reordered = await cycle()
      #expect(reordered.fullSweep && !reordered.listUnordered && reordered.changed == 1)
      try await post(old[31], "checked from the top again")
      let resumed = await cycle()
      #expect(!resumed.fullSweep && resumed.changed == 1)

      // An hour on, with posts in two threads: the check finds both and starts the full sweep, which reads the
      // rest of the list a page at a time; a post made between its pages is found by the next check.
      clock.advance(by: 3600)
      try await post(old[40], "before the hourly sweep")
      try await post(LoopbackWorld.devThread, "and the dev thread again")
      let starts = await cycle()
      #expect(starts.succeeded && !starts.fullSweep && starts.changed == 2)
      try await post(old[41], "during the hourly sweep")
      let sweep = await bot.sweep()
      #expect(sweep.map(\.listPages) == [1] && sweep.allSatisfy(\.succeeded) && sweep.last?.fullSweep == true)
      let during = await cycle()
      #expect(during.succeeded && !during.fullSweep && during.changed == 1)
      #expect(await bot.sweep().isEmpty)

      let keys = bot.transport.sent(to: "!room").map(\.key)
      #expect(keys.count == posted.count, "every post once: \(keys)")
      #expect(keys.sorted() == posted.map { "test|!room|post:\($0)" }.sorted())
      let warnings = log.entries.filter { $0.level == .warning }.map(\.message)
      #expect(warnings == ["bookmarks list is not newest-first: reading all of it at every poll until it is"])
      #expect(log.messages.filter { $0 == "bookmarks list is newest-first again: polls read from the top" }.count == 1)
      try await bot.stop()
    }
  }

  @Test("a post deleted on the forum and a bookmark added on the web, deep in the list: the next full sweep takes both")
  func deletedPostAndWebBookmark() async throws {
    try await withLoopbackWorld { world in
      let state = world.state
      _ = try await Self.addOldBookmarks(world)
      // Oldest of all, so both sit at the end of page 2: a thread with stored posts, and one not bookmarked yet.
      let oldest = Date(timeIntervalSince1970: 1_599_999_960)  // a whole minute, as the forum keeps dates
      let thread = try await state.addThread(
        forum: 273, title: "Thread that loses a post", author: LoopbackWorld.poster, body: "first", date: oldest)
      try await state.addPost(thread: thread, author: 1003, body: "second", date: oldest.addingTimeInterval(60))
      let doomed = try await state.addPost(
        thread: thread, author: 1003, body: "third", date: oldest.addingTimeInterval(600))
      try await state.addBookmark(user: LoopbackWorld.botUserID, thread: thread)
      let web = try #require(
        try await state.addGeneratedThreads(
          count: 1, forum: 273, author: LoopbackWorld.poster, postsPerThread: 3, titlePrefix: "Web bookmark",
          startDate: oldest
        ).first)

      let clock = TestClock()
      let bot = try world.startBot(now: { clock.now() })
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()

      try await state.deletePost(doomed)
      try await state.addBookmark(user: LoopbackWorld.botUserID, thread: web)
      #expect(await state.thread(thread)?.lastPostDate == oldest.addingTimeInterval(60))

      clock.advance(by: 60)
      await world.state.clearRequests()
      let check = await bot.cycle()
      #expect(!check.fullSweep && check.listPages == 1)
      var stored = try await bot.database.read { tx in
        (try tx.thread(id: String(thread)), try tx.thread(id: String(web)))
      }
      #expect(stored.0?.replyCount == 2 && stored.1 == nil)

      clock.advance(by: 3600)
      let starts = await bot.cycle()
      #expect(!starts.fullSweep && starts.listPages == 1)
      let sweep = await bot.sweep()
      #expect(sweep.map(\.listPages) == [1] && sweep.last?.fullSweep == true)
      stored = try await bot.database.read { tx in
        (try tx.thread(id: String(thread)), try tx.thread(id: String(web)))
      }
      #expect(stored.0?.replyCount == 1 && stored.0?.cursorIndex == 2)
      #expect(stored.0?.lastPostAt == oldest.addingTimeInterval(60))
      #expect(stored.1?.isBookmarked == true && stored.1?.cursorIndex == 3)
      #expect(bot.transport.sent.isEmpty)

      // The next post takes the deleted one's index (3) and reaches the room, as does one in the web bookmark.
      let next = try await state.addPost(thread: thread, author: LoopbackWorld.poster, body: "after the deletion")
      #expect(await state.post(next)?.index == 3)
      let inWeb = try await state.addPost(thread: web, author: LoopbackWorld.poster, body: "in the web bookmark")
      clock.advance(by: 60)
      let after = await bot.cycle()
      #expect(!after.fullSweep && after.changed == 2)
      #expect(
        bot.transport.sent(to: "!room").map(\.key).sorted()
          == ["test|!room|post:\(next)", "test|!room|post:\(inWeb)"].sorted())
      try await bot.stop()
    }
  }

  @Test("a moderator deletes two posts while three are made: the forum shows one post more, all three reach the room")
  func deletionsHiddenByMorePosts() async throws {
    try await withLoopbackWorld { world in
      let state = world.state
      let thread = try await state.addThread(
        forum: 273, title: "Thread a moderator cleans up", author: LoopbackWorld.poster, body: "first")
      var older: [Int] = []
      for number in 2...6 { older.append(try await state.addPost(thread: thread, author: 1003, body: "old \(number)")) }
      try await state.addBookmark(user: LoopbackWorld.botUserID, thread: thread)
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()
      let relayed = try await state.addPost(thread: thread, author: LoopbackWorld.poster, body: "relayed")
      await bot.cycle()

      try await state.deletePost(older[1])
      try await state.deletePost(older[2])
      var made: [Int] = []
      for number in 1...3 { made.append(try await state.addPost(thread: thread, author: 1003, body: "new \(number)")) }
      #expect(await state.post(made[0])?.index == 6)
      let report = await bot.cycle()
      #expect(report.succeeded && report.newPosts == 3)
      #expect(bot.transport.sent(to: "!room").map(\.key) == ([relayed] + made).map { "test|!room|post:\($0)" })
      try await bot.stop()
    }
  }

  @Test("a watched forum is read past page 1 while its threads are all newer than the last read: no new thread missed")
  func watchedForumPastPageOne() async throws {
    try await withLoopbackWorld { world in
      let state = world.state
      let forumID = try await state.addForum(title: "Busy forum", parent: 48)
      let threads = try await state.addGeneratedThreads(
        count: 60, forum: forumID, author: LoopbackWorld.poster, titlePrefix: "Busy",
        startDate: Date(timeIntervalSince1970: 1_690_000_000))
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .forum(id: String(forumID)))
      let first = await bot.engine.polling.poll(.forum(id: String(forumID)))
      #expect(first.succeeded && first.listPages == 1)

      // A new thread, then 45 older threads bumped after it: it is on page 2 now.
      let now = Date()
      let fresh = try await state.addThread(
        forum: forumID, title: "Pushed off the first page", author: 1003, body: "hello", date: now)
      for thread in threads.prefix(45) {
        try await state.addPost(thread: thread, author: 1002, body: "bump", date: now.addingTimeInterval(120))
      }
      let report = await bot.engine.polling.poll(.forum(id: String(forumID)))
      #expect(report.succeeded && report.listPages == 2 && report.changed == 1)
      await bot.dispatcher.drain()
      #expect(bot.transport.sent(to: "!room").map(\.key) == ["test|!room|thread:\(fresh)"])
      #expect(report.pace?.reason == .activity)
      try await bot.stop()
    }
  }
}
