import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum bookmarks, forum lists and announcements")
struct BookmarkAndForumTests {
  @Test func twoThousandGeneratedBookmarksPageAtForty() async throws {
    try await withForum(FakeForumConfiguration(seed: .empty)) { server, client throws in
      let ids = try await server.state.addGeneratedThreads(
        count: 2_000, forum: 273, author: FakeForumSeed.botUserID, postsPerThread: 3,
        bookmarkedBy: FakeForumSeed.botUserID, star: .green)
      #expect(ids.count == 2_000)
      _ = try await client.logIn()
      let first = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=1").text
      #expect(first.contains("name=\"bookmarks\""))
      #expect(first.components(separatedBy: "<tr class=\"thread\"").count - 1 == 40)
      #expect(first.contains("data-current-page=\"1\" data-total-pages=\"50\""))
      #expect(first.contains("class=\"star bm4\""))
      // Newest last post first: the last generated thread leads.
      #expect(first.contains("id=\"thread\(ids[1_999])\""))
      let last = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=50").text
      #expect(last.components(separatedBy: "<tr class=\"thread\"").count - 1 == 40)
      let past = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=51").text
      #expect(past.components(separatedBy: "<tr class=\"thread\"").count - 1 == 0)
      // A generated post is served like any other.
      let page = try await client.get("/showthread.php?threadid=\(ids[0])&noseen=1").text
      #expect(page.components(separatedBy: "<table class=\"post\"").count - 1 == 3)
    }
  }

  @Test func addAndRemoveBookmarksWithStarColour() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let bot = FakeForumSeed.botUserID
      let add = try await client.postMultipart(
        "/bookmarkthreads.php",
        fields: [("json", "1"), ("action", "add"), ("threadid", "3600005"), ("category_id", "3")])
      #expect(add.status == 200)
      #expect(add.contentType?.hasPrefix("application/json") == true)
      #expect(await server.state.bookmarks(user: bot)[3_600_005] == .cyan)
      let list = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=1").text
      #expect(list.contains("<td class=\"star bm3\"></td>"))
      _ = try await client.postMultipart(
        "/bookmarkthreads.php", fields: [("json", "1"), ("action", "remove"), ("threadid", "3600005")])
      #expect(await server.state.bookmarks(user: bot)[3_600_005] == nil)
    }
  }

  @Test func forumDisplayListsStickiesAnnouncementsAndThePostButton() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/forumdisplay.php?forumid=46&perpage=40&pagenumber=1").text
      #expect(html.contains("data-forum=\"46\""))
      #expect(html.contains("<a href=\"forumdisplay.php?forumid=51\">Discussion</a>"))
      #expect(html.contains("newthread.php?action=newthread&amp;forumid=46"))
      #expect(html.contains("class=\"announcement\">Welcome to the Fake Forums!</a>"))
      let sticky = try #require(html.range(of: "id=\"thread3600006\""))
      let other = try #require(html.range(of: "id=\"thread3600002\""))
      #expect(sticky.lowerBound < other.lowerBound)
      #expect(html.contains("title title_sticky"))
      // Page -1: announcements only.
      let announcementsOnly = try await client.get("/forumdisplay.php?forumid=46&perpage=40&pagenumber=-1").text
      #expect(announcementsOnly.contains("class=\"announcement\""))
      #expect(!announcementsOnly.contains("id=\"thread"))
    }
  }

  @Test func threadListDatesUseTheForumClockAndSpacePaddedDays() async throws {
    try await withForum(FakeForumConfiguration(seed: .empty)) { server, client throws in
      // 2024-03-05 14:07 America/Chicago (CST, UTC-6).
      let date = Date(timeIntervalSince1970: 1_709_669_220)
      try await server.state.addThread(
        forum: 273, title: "Dated", author: FakeForumSeed.botUserID, body: "x", date: date)
      _ = try await client.logIn()
      let html = try await client.get("/forumdisplay.php?forumid=273").text
      #expect(html.contains("<div class=\"date\">14:07 Mar  5, 2024</div>"))
    }
  }

  @Test func announcementPageHasBodyAndDateRows() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/announcement.php?forumid=1").text
      #expect(html.contains("<table class=\"post\" id=\"main_full\">"))
      #expect(html.contains("Thanks for shopping in advance!"))
      #expect(html.contains("<td class=\"postdate\">Jan 14, 2024</td>"))
    }
  }
}
