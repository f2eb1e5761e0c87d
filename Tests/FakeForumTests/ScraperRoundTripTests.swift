import AwfulScraping
import ForumModel
import Foundation
import Testing

@testable import FakeForum

/// What the emulator renders, the project's scrapers must read back exactly: the emulator is only useful for
/// client and engine tests if it speaks the same markup as the forum the scrapers were written against.
@Suite("FakeForum pages read back by the scrapers")
struct ScraperRoundTripTests {
  static let trickyTitle = "Ünïcödé «thread» — ‘quotes’ & <tags> 😀 🇨🇦 日本"
  static let trickyText = "Ça marche: “smart quotes”, € sign, emoji 😀👍🏽, 日本語 and 🇨🇦."

  /// A forum with a tricky thread: several authors (admin, moderator), 45 posts (two pages), bookmarked red,
  /// read up to post 41.
  static func makeForum(_ pageNav: PageNavStyle) async throws -> (FakeForumServer, Int) {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(seed: .demo, pageNav: pageNav))
    let state = server.state
    let start = Date(timeIntervalSince1970: 1_710_000_000)
    let thread = try await state.addThread(
      forum: 46, title: trickyTitle, author: 1003, body: trickyText, date: start,
      rating: (count: 7, average: 3.86))
    let authors = [1002, 1004, 1005, FakeForumSeed.botUserID, 1003]
    for n in 2...45 {
      try await state.addPost(
        thread: thread, author: authors[n % authors.count], body: "Post \(n): \(trickyText)",
        date: start.addingTimeInterval(Double(n) * 3_600 + 17))
    }
    try await state.addBookmark(user: FakeForumSeed.botUserID, thread: thread, star: .red)
    await state.setLastRead(user: FakeForumSeed.botUserID, thread: thread, index: 41)
    return (server, thread)
  }

  func charset(_ reply: ForumTestClient.Reply) -> String? {
    reply.contentType?.components(separatedBy: "charset=").last
  }

  @Test(arguments: PageNavStyle.allCases)
  func bookmarksPageReadsBackAsStored(pageNav: PageNavStyle) async throws {
    let (server, threadID) = try await Self.makeForum(pageNav)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      _ = try await client.logIn()
      let reply = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=1")
      let page = try ThreadListScraper().scrape(
        data: Data(reply.body), url: url, charset: charset(reply), expecting: .bookmarks)
      #expect(page.isBookmarksPage)
      #expect(page.page == PageNavigation(current: 1, total: 1))

      let state = server.state
      let bookmarks = await state.bookmarks(user: FakeForumSeed.botUserID)
      #expect(Set(page.threads.map(\.id)) == Set(bookmarks.keys.map(String.init)))
      for scraped in page.threads {
        let id = try #require(Int(scraped.id))
        let stored = try #require(await state.thread(id))
        #expect(scraped.title == stored.title)
        #expect(scraped.authorID == "\(stored.authorID)")
        #expect(scraped.authorName == (await state.user(stored.authorID))?.name)
        #expect(scraped.replyCount == stored.replyCount)
        #expect(scraped.lastPostDate == stored.lastPostDate)
        #expect(scraped.lastPostAuthor == (await state.user(stored.lastPostAuthorID))?.name)
        #expect(scraped.isSticky == stored.isSticky)
        #expect(scraped.isClosed == stored.isClosed)
        #expect(scraped.star == bookmarks[id])
        #expect(scraped.icon?.id == "\(stored.icon.id)")
        let lastRead = await state.lastRead(user: FakeForumSeed.botUserID, thread: id)
        #expect(scraped.neverVisited == (lastRead == nil))
        let unread = lastRead.map { stored.postCount - $0 }
        #expect(scraped.unreadCount == (unread.map { $0 > 0 ? $0 : nil } ?? nil))
      }
      let tricky = try #require(page.threads.first { $0.id == "\(threadID)" })
      #expect(tricky.title == Self.trickyTitle)
      #expect(tricky.unreadCount == 4)
      #expect(tricky.ratingCount == 7)
      #expect(tricky.ratingAverage == 3.86)
    }
  }

  @Test(arguments: PageNavStyle.allCases)
  func forumPageReadsBackWithBreadcrumbsAndAnnouncements(pageNav: PageNavStyle) async throws {
    let (server, threadID) = try await Self.makeForum(pageNav)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      _ = try await client.logIn()
      let reply = try await client.get("/forumdisplay.php?forumid=46&perpage=40&pagenumber=1")
      let page = try ThreadListScraper().scrape(
        data: Data(reply.body), url: url, charset: charset(reply), expecting: .forum)
      #expect(!page.isBookmarksPage)
      #expect(page.forumID == "46")
      #expect(page.canPostNewThread)
      #expect(page.breadcrumbs.map(\.name) == ["Discussion", "Debate & Discussion"])
      #expect(page.breadcrumbs.map(\.forumID) == ["51", "46"])
      #expect(page.threads.first?.id == "3600006")  // the sticky leads
      #expect(page.threads.map(\.id).contains("\(threadID)"))
      let announcement = try #require(page.announcements.first)
      #expect(announcement.title == "Welcome to the Fake Forums!")
      #expect(announcement.authorName == "angerbot")
      #expect(announcement.date == Date(timeIntervalSince1970: 1_705_233_600))
    }
  }

  @Test(arguments: PageNavStyle.allCases)
  func postsPageReadsBackAsStored(pageNav: PageNavStyle) async throws {
    let (server, threadID) = try await Self.makeForum(pageNav)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      _ = try await client.logIn()
      let path = "/showthread.php?threadid=\(threadID)&perpage=40&pagenumber=2&noseen=1"
      let reply = try await client.get(path)
      let page = try PostsPageScraper().scrape(
        data: Data(reply.body), url: URL(string: url.absoluteString + path), charset: charset(reply))
      #expect(page.threadID == "\(threadID)")
      #expect(page.threadTitle == Self.trickyTitle)
      #expect(page.forumID == "46")
      #expect(page.breadcrumbs.map(\.name) == ["Discussion", "Debate & Discussion"])
      #expect(!page.isClosed)
      #expect(page.isBookmarked == true)
      #expect(page.page == PageNavigation(current: 2, total: 2))
      #expect(page.posts.map(\.index) == Array(41...45))
      #expect(page.posts.map(\.hasBeenSeen) == [true, false, false, false, false])
      #expect(page.firstUnreadIndexOnPage == 2)

      let state = server.state
      let thread = try #require(await state.thread(threadID))
      for scraped in page.posts {
        let stored = try #require(await state.post(in: thread, index: scraped.index))
        let author = try #require(await state.user(stored.authorID))
        #expect(scraped.id == "\(stored.id)")
        #expect(scraped.author.name == author.name)
        #expect(scraped.author.id == "\(author.id)")
        #expect(scraped.author.isAdministrator == author.isAdmin)
        #expect(scraped.author.isModerator == author.isModerator)
        #expect(scraped.author.isOriginalPoster == (author.id == thread.authorID))
        #expect(scraped.author.regdate == author.regdate)
        #expect(scraped.date == stored.date)
        #expect(plainText(scraped.body) == "Post \(scraped.index): \(Self.trickyText)")
      }
    }
  }

  @Test func richPostBodiesBecomeQuotesSpoilersImagesAndLinks() async throws {
    let (server, _) = try await Self.makeForum(.new)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      let state = server.state
      let quoted = try #require(await state.thread(3_600_002)?.postIDs.first)
      let thread = try await state.addThread(
        forum: 273, title: "Rich", author: 1002,
        body:
          "[quote=\"Zoë Québec\" post=\"\(quoted)\"]\nBienvenue! 😀\n[/quote]\nAfter the quote [spoiler]hidden[/spoiler] [img]https://i.example.com/a.png[/img] [url=https://example.com/x]a link[/url]"
      )
      _ = try await client.logIn()
      let path = "/showthread.php?threadid=\(thread)&perpage=40&pagenumber=1&noseen=1"
      let reply = try await client.get(path)
      let page = try PostsPageScraper().scrape(
        data: Data(reply.body), url: URL(string: url.absoluteString + path), charset: charset(reply))
      let body = try #require(page.posts.first).body
      func find(_ nodes: [RichText], _ match: (RichText) -> Bool) -> RichText? {
        for node in nodes {
          if match(node) { return node }
          let children: [RichText]
          switch node {
          case .paragraph(let c), .bold(let c), .italic(let c), .underline(let c), .strike(let c), .spoiler(let c):
            children = c
          case .link(_, let c), .quote(_, _, let c): children = c
          default: children = []
          }
          if let found = find(children, match) { return found }
        }
        return nil
      }
      let quote = try #require(find(body) { if case .quote = $0 { true } else { false } })
      if case .quote(let author, let postID, let children) = quote {
        #expect(author == "Zoë Québec")
        #expect(postID == "\(quoted)")
        #expect(plainText(children) == "Bienvenue! 😀")
      }
      #expect(find(body) { if case .spoiler = $0 { true } else { false } } != nil)
      #expect(find(body) { $0 == .image(url: "https://i.example.com/a.png") } != nil)
      #expect(find(body) { if case .link(let url, _) = $0 { url == "https://example.com/x" } else { false } } != nil)
    }
  }

  @Test func errorPagesAreRecognised() async throws {
    let (server, _) = try await Self.makeForum(.new)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      let scraper = ErrorPageScraper()
      func error(_ path: String) async throws -> ForumPageError? {
        let reply = try await client.get(path)
        return try scraper.scrape(data: Data(reply.body), url: url, charset: charset(reply))
      }
      guard case .loggedOut? = try await error("/bookmarkthreads.php?action=view") else {
        Issue.record("logged-out page not recognised")
        return
      }
      _ = try await client.logIn()
      guard case .threadClosed? = try await error("/newreply.php?action=newreply&threadid=3600004") else {
        Issue.record("closed thread not recognised")
        return
      }
      await server.state.setFault(.databaseUnavailable)
      guard case .databaseUnavailable? = try await error("/bookmarkthreads.php?action=view") else {
        Issue.record("database page not recognised")
        return
      }
      await server.state.clearFaults()
      await server.state.setFault(.banned)
      guard case .banned(_, let reason)? = try await error("/bookmarkthreads.php?action=view") else {
        Issue.record("banned page not recognised")
        return
      }
      #expect(reason?.contains("banlist.php") == true)
      await server.state.clearFaults()
      // The probation banner is not an error page; posting on probation is refused with one that says so.
      await server.state.setFault(.probation)
      #expect(try await error("/bookmarkthreads.php?action=view") == nil)
      let refusal = try await client.postMultipart(
        "/newreply.php", fields: [("action", "postreply"), ("threadid", "3600001"), ("message", "hi")])
      guard case .probation(let message)? = try scraper.scrape(data: Data(refusal.body), url: url) else {
        Issue.record("the refusal to post on probation not recognised")
        return
      }
      #expect(message.contains("You are on probation and cannot post until"))
      await server.state.clearFaults()
      #expect(try await error("/bookmarkthreads.php?action=view") == nil)
    }
  }

  /// With the probation fault on, pages read as usual and carry the banner with the end it names.
  @Test(arguments: [PageNavStyle.old, .new])
  func probationBannerReadsBackWithItsEnd(pageNav: PageNavStyle) async throws {
    let (server, threadID) = try await Self.makeForum(pageNav)
    // 18:30 UTC is 12:30 in Chicago (CST).
    let end = Date(timeIntervalSince1970: 1_767_292_200)
    await server.state.setProbation(until: end)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      _ = try await client.logIn()
      let bookmarks = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=1")
      let list = try ThreadListScraper().scrape(
        data: Data(bookmarks.body), url: url, charset: charset(bookmarks), expecting: .bookmarks)
      #expect(list.threads.contains { $0.id == "\(threadID)" })
      #expect(list.probation?.until == end)
      #expect(list.probation?.message.contains("YOU ARE A HORRIBLE MONSTER ON PROBATION!") == true)

      let thread = try await client.get("/showthread.php?threadid=\(threadID)&perpage=40&pagenumber=2&noseen=1")
      let page = try PostsPageScraper().scrape(data: Data(thread.body), url: url, charset: charset(thread))
      #expect(page.posts.count == 5)
      #expect(page.probation?.until == end)
      #expect(page.probation?.untilRaw == "Jan 1, 2026 12:30")
    }
  }

  @Test func replyFormAndResultReadBack() async throws {
    let (server, threadID) = try await Self.makeForum(.new)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      _ = try await client.logIn()
      let formReply = try await client.get("/newreply.php?action=newreply&threadid=\(threadID)")
      let form = try ReplyFormScraper().scrape(data: Data(formReply.body), url: url, charset: charset(formReply))
      #expect(form.fields.first { $0.name == "action" }?.value == "postreply")
      #expect(form.fields.first { $0.name == "threadid" }?.value == "\(threadID)")
      #expect(form.submitButtons.map(\.name).contains("submit"))
      var fields = form.fields.filter { $0.name != "message" }.map { ($0.name, $0.value) }
      fields.append(("message", Self.trickyText))
      fields.append(("submit", "Submit Reply"))
      let result = try await client.postMultipart("/newreply.php", fields: fields)
      let parsed = try ReplyResultScraper().scrape(data: Data(result.body), url: url, charset: charset(result))
      let newID = try #require(await server.state.thread(threadID)?.postIDs.last)
      #expect(parsed == .post(id: "\(newID)"))
      #expect(await server.state.post(newID)?.body == .bbcode(Self.trickyText))
    }
  }

  @Test func indexJSONAnnouncementsAndShowPostReadBack() async throws {
    let (server, threadID) = try await Self.makeForum(.new)
    try await withStarted(server) { client throws in
      let url = client.baseURL
      _ = try await client.logIn()

      let indexReply = try await client.get("/index.php?json=1")
      let index = try ForumIndexScraper().scrape(data: Data(indexReply.body), url: url)
      #expect(index.user?.name == "awfulbot")
      #expect(index.groups.map(\.title) == ["Main", "Discussion"])
      #expect(index.groups.first?.subforums.first?.subforums.first?.title == "The Cholesterol Clubhouse")

      let list = try await client.get("/forumdisplay.php?forumid=46&pagenumber=-1")
      let rows = try ThreadListScraper().scrape(data: Data(list.body), url: url, charset: charset(list)).announcements
      let announcementReply = try await client.get("/announcement.php?forumid=1")
      let announcements = try AnnouncementsScraper().scrape(
        data: Data(announcementReply.body), url: url, charset: charset(announcementReply), listed: rows)
      #expect(announcements.count == 1)
      #expect(announcements.first?.title == "Welcome to the Fake Forums!")
      #expect(announcements.first?.author.name == "angerbot")
      let announcementText = plainText(announcements.first?.body ?? [])
      #expect(announcementText.contains("Thanks for shopping in advance!"))

      let postID = try #require(await server.state.thread(threadID)?.postIDs.first)
      let showReply = try await client.get("/showthread.php?action=showpost&postid=\(postID)")
      let shown = try ShowPostScraper().scrape(data: Data(showReply.body), url: url, charset: charset(showReply))
      #expect(shown.threadID == "\(threadID)")
      #expect(shown.threadTitle == Self.trickyTitle)
      #expect(shown.post.id == "\(postID)")
      #expect(plainText(shown.post.body) == Self.trickyText)
    }
  }

  @Test func fyadPagesGetIndexesFromThePagePosition() async throws {
    let server = try await FakeForumServer(configuration: FakeForumConfiguration(omitPostIndexes: true))
    try await withStarted(server) { client throws in
      _ = try await client.logIn()
      let path = "/showthread.php?threadid=3600001&perpage=40&pagenumber=2&noseen=1"
      let reply = try await client.get(path)
      let page = try PostsPageScraper().scrape(
        data: Data(reply.body), url: URL(string: client.baseURL.absoluteString + path), charset: charset(reply))
      #expect(page.posts.map(\.index) == Array(41...80))
      #expect(page.posts.allSatisfy { !$0.indexIsExplicit })
    }
  }
}
