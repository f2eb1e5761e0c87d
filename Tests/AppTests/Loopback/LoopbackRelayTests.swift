import AwfulBotTestKit
import ChatBridge
import Foundation
import Testing

@testable import BotCore

/// The engine on the real stack: FakeForum over loopback → ForumsClient → BotEngine on a SQLite file → Dispatcher →
/// recording transport.
@Suite("Loopback relay")
struct LoopbackRelayTests {
  @Test("subscribing to the bookmarks relays none of the posts already there and fetches no thread page")
  func subscribeDoesNotFlood() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      let seeding = await bot.cycle()
      let again = await bot.cycle()

      #expect(seeding.succeeded && again.succeeded)
      #expect(seeding.changed == 0 && again.changed == 0)
      #expect(bot.transport.sent.isEmpty)
      #expect(try await bot.rows().isEmpty)
      // The 95 posts of the dev thread were seen in the bookmarks list: no page of it was read.
      #expect(await world.requests(to: "/showthread.php").isEmpty)
      #expect(await world.requests(to: "/bookmarkthreads.php").count == 2)
      let thread = try await bot.database.read { tx in try tx.thread(id: String(LoopbackWorld.devThread)) }
      #expect(thread?.cursorIndex == 95)
      #expect(await world.state.lastRead(user: LoopbackWorld.botUserID, thread: LoopbackWorld.devThread) == 50)
      try await bot.stop()
    }
  }

  @Test("new posts crossing from page 3 to page 4 arrive once, in order, with text and link; minimal requests")
  func newPostsAcrossAPageBoundary() async throws {
    try await withLoopbackWorld { world in
      // 27 new posts (96…122) must all go out one by one: raise the replay cap above them.
      let bot = try world.startBot { $0.replayCap = 40 }
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()
      await world.state.clearRequests()

      let ids = try await world.addPosts(27, prefix: "Loopback post")
      let report = await bot.cycle()
      let quiet = await bot.cycle()

      #expect(report.succeeded, "\(report.error ?? "")")
      #expect(report.changed == 1)
      #expect(report.newPosts == 27)
      #expect(quiet.changed == 0 && quiet.newPosts == 0)
      let sent = bot.transport.sent(to: "!room")
      #expect(sent.map(\.key) == ids.map { "test|!room|post:\($0)" })
      for (n, (message, id)) in zip(sent.map(\.message), ids).enumerated() {
        #expect(message.kind == .relay)
        #expect(message.text.contains("Loopback post \(n + 1)\n"), "\(message.text)")
        #expect(message.text.contains(LoopbackWorld.posterName))
        #expect(message.text.contains("AwfulBot development thread"))
        let link = await world.postLink(postID: id)
        #expect(message.link == link)
        #expect(message.text.hasSuffix(link))
      }
      let rows = try await bot.rows()
      #expect(rows.count == 27)
      #expect(rows.allSatisfy { $0.state == .delivered && $0.receipt != nil })

      // One bookmarks page and the two pages holding posts 96…122 for the first poll; one bookmarks page after.
      let requests = await world.state.requests()
      #expect(
        requests.map(\.path) == ["/bookmarkthreads.php", "/showthread.php", "/showthread.php", "/bookmarkthreads.php"])
      #expect(report.requests == 3)
      let pages = requests.filter { $0.path == "/showthread.php" }
      #expect(pages.map { $0.queryValue("pagenumber") } == ["3", "4"])
      #expect(pages.allSatisfy { $0.queryValue("noseen") == "1" && $0.queryValue("threadid") == "3600001" })
      // Reading with noseen=1 leaves the account's read marker where the seed put it.
      #expect(await world.state.lastRead(user: LoopbackWorld.botUserID, thread: LoopbackWorld.devThread) == 50)
      try await bot.stop()
    }
  }

  @Test("only the changed threads' pages are read: one bookmarks page plus one page per changed thread")
  func onlyChangedThreadsAreFetched() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      try await bot.engine.subscriptions.subscribe(room: bot.room, to: .bookmarks)
      await bot.cycle()
      await world.state.clearRequests()

      // Two of the four bookmarked threads move; the other two must not be read.
      let quebec = try await world.state.addPost(thread: 3_600_002, author: LoopbackWorld.poster, body: "Québec news")
      let desk = try await world.state.addPost(thread: 3_600_003, author: LoopbackWorld.poster, body: "New desk")
      let report = await bot.cycle()

      #expect(report.succeeded, "\(report.error ?? "")")
      #expect(report.requests == 3)
      let pages = await world.requests(to: "/showthread.php")
      #expect(Set(pages.compactMap { $0.queryValue("threadid") }) == ["3600002", "3600003"])
      #expect(pages.count == 2)
      #expect(pages.allSatisfy { $0.queryValue("noseen") == "1" })
      #expect(await world.requests(to: "/bookmarkthreads.php").count == 1)
      #expect(Set(bot.transport.sent.map(\.key)) == ["test|!room|post:\(quebec)", "test|!room|post:\(desk)"])
      try await bot.stop()
    }
  }

  @Test("a new announcement goes once to every subscribed room; polling again repeats nothing")
  func announcements() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      let rooms = [RoomRef(transport: "test", room: "!a"), RoomRef(transport: "test", room: "!b")]
      for room in rooms { try await bot.engine.subscriptions.subscribe(room: room, to: .announcements) }
      let seeding = await bot.engine.polling.poll(.announcements)
      await bot.dispatcher.drain()
      #expect(seeding.succeeded, "\(seeding.error ?? "")")
      #expect(seeding.queued == 0)
      #expect(bot.transport.sent.isEmpty)

      try await world.state.addAnnouncement(
        title: "Loopback announcement", author: 1004, body: "The loopback suite is running.\nPlease stand by.")
      let fresh = await bot.engine.polling.poll(.announcements)
      await bot.dispatcher.drain()
      let repeated = await bot.engine.polling.poll(.announcements)
      await bot.dispatcher.drain()

      #expect(fresh.succeeded, "\(fresh.error ?? "")")
      #expect(fresh.changed == 1)
      #expect(fresh.queued == 2)
      #expect(repeated.succeeded && repeated.changed == 0 && repeated.queued == 0)
      for room in rooms {
        let texts = bot.texts(room: room.room)
        #expect(texts.count == 1)
        #expect(texts.first?.contains("Loopback announcement") == true)
        #expect(texts.first?.contains("The loopback suite is running.") == true)
        #expect(texts.first?.contains("Welcome to the Fake Forums!") == false)
      }
      #expect(try await bot.rows().count == 2)
      try await bot.stop()
    }
  }

  @Test("watching a thread the bot has not bookmarked bookmarks it on the forum, then relays its new posts")
  func watchBookmarksOnTheForum() async throws {
    try await withLoopbackWorld { world in
      let bot = try world.startBot()
      let thread = LoopbackWorld.unbookmarkedThread
      #expect(await world.state.bookmarks(user: LoopbackWorld.botUserID)[thread] == nil)

      let result = try await bot.engine.subscriptions.watch(threadID: String(thread), room: bot.room)
      #expect(result.addedBookmark)
      #expect(result.isNew)
      #expect(result.title == "What did you eat today?")
      #expect(await world.state.bookmarks(user: LoopbackWorld.botUserID)[thread] != nil)
      let seeding = await bot.cycle()
      #expect(seeding.succeeded, "\(seeding.error ?? "")")
      #expect(bot.transport.sent.isEmpty)

      let postID = try await world.state.addPost(
        thread: thread, author: LoopbackWorld.poster, body: "Soup, with a loopback on the side.")
      let report = await bot.cycle()
      #expect(report.succeeded, "\(report.error ?? "")")
      #expect(bot.transport.sent.map(\.key) == ["test|!room|post:\(postID)"])
      #expect(bot.texts().first?.contains("Soup, with a loopback on the side.") == true)
      let link = await world.postLink(thread: thread, postID: postID)
      #expect(bot.transport.sent.first?.message.link == link)
      let pages = await world.requests(to: "/showthread.php")
      #expect(!pages.isEmpty)
      #expect(pages.allSatisfy { $0.queryValue("noseen") == "1" })
      #expect(await world.state.lastRead(user: LoopbackWorld.botUserID, thread: thread) == nil)
      try await bot.stop()
    }
  }
}
