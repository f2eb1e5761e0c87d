import Foundation
import Testing

@testable import FakeForum

@Suite("FakeForum thread pages and redirects")
struct ThreadPageTests {
  let devThread = 3_600_001  // demo seed: 95 posts, bot has read 50

  @Test func pageOneHasFortyPostsWithIndexesAndModernPageNav() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let reply = try await client.get("/showthread.php?threadid=\(devThread)&perpage=40&pagenumber=1&noseen=1")
      #expect(reply.status == 200)
      #expect(reply.contentType == "text/html; charset=windows-1252")
      let html = reply.text
      #expect(html.components(separatedBy: "<table class=\"post\"").count - 1 == 40)
      #expect(html.contains("data-idx=\"1\"") && html.contains("data-idx=\"40\"") && !html.contains("data-idx=\"41\""))
      #expect(html.contains("data-forum=\"202\" data-thread=\"\(devThread)\""))
      #expect(html.contains("data-current-page=\"1\" data-total-pages=\"3\""))
      #expect(html.contains("<!-- BeginContentMarker -->"))
      #expect(html.contains("class=\"thread_bookmark unbookmark\""))
      #expect(html.contains("<dt class=\"author op\""))
      #expect(html.contains("class=\"seen2\" id=\"pti1\""))
    }
  }

  @Test func oldPageNavMarksTheCurrentPageSelected() async throws {
    try await withForum(FakeForumConfiguration(pageNav: .old)) { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/showthread.php?threadid=\(devThread)&perpage=40&pagenumber=2").text
      #expect(html.contains("<option value=\"2\" selected=\"selected\">2</option>"))
      #expect(!html.contains("data-current-page"))
    }
  }

  @Test func gotoLastPostRedirectsToTheLastPageWithoutPerPage() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let reply = try await client.get("/showthread.php?threadid=\(devThread)&perpage=40&goto=lastpost&noseen=1")
      #expect(reply.status == 302)
      let thread = try #require(await server.state.thread(devThread))
      let lastPostID = try #require(thread.postIDs.last)
      let location = try #require(reply.header("Location"))
      #expect(
        location
          == "\(client.baseURL.absoluteString)/showthread.php?threadid=\(devThread)&pagenumber=3#post\(lastPostID)")
      #expect(!location.contains("perpage"))
    }
  }

  @Test func gotoNewPostPointsAtTheFirstUnreadPost() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      // The bot has read 50 posts: post 51 is the 11th on page 2.
      let reply = try await client.get("/showthread.php?threadid=\(devThread)&goto=newpost")
      #expect(reply.header("Location")?.hasSuffix("/showthread.php?threadid=\(devThread)&pagenumber=2#pti11") == true)
    }
  }

  @Test func gotoPostFindsThreadAndPage() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let thread = try #require(await server.state.thread(devThread))
      let postID = thread.postIDs[44]  // index 46 → page 2
      let reply = try await client.get("/showthread.php?goto=post&postid=\(postID)&noseen=1")
      #expect(reply.status == 302)
      #expect(
        reply.header("Location")?.hasSuffix("/showthread.php?threadid=\(devThread)&pagenumber=2#post\(postID)") == true)
    }
  }

  @Test func readingWithoutNoseenMovesTheReadMarkerAndNoseenDoesNot() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let bot = FakeForumSeed.botUserID
      _ = try await client.get("/showthread.php?threadid=\(devThread)&perpage=40&pagenumber=2&noseen=1")
      #expect(await server.state.lastRead(user: bot, thread: devThread) == 50)
      _ = try await client.get("/showthread.php?threadid=\(devThread)&perpage=40&pagenumber=2")
      #expect(await server.state.lastRead(user: bot, thread: devThread) == 80)
      // The bookmarks list now counts 15 unread posts (95 - 80).
      let list = try await client.get("/bookmarkthreads.php?action=view&perpage=40&pagenumber=1").text
      #expect(list.contains("threadid=\(devThread)&amp;goto=newpost\" class=\"count\"><b>15</b>"))
    }
  }

  @Test func withoutPerPageTheUsersOwnSettingApplies() async throws {
    try await withForum { server, client throws in
      try await server.state.setPostsPerPage(user: FakeForumSeed.botUserID, 25)
      _ = try await client.logIn()
      let html = try await client.get("/showthread.php?threadid=\(devThread)&pagenumber=1&noseen=1").text
      #expect(html.components(separatedBy: "<table class=\"post\"").count - 1 == 25)
      #expect(html.contains("data-total-pages=\"4\""))
    }
  }

  @Test func closedThreadShowsTheClosedButtonAndRefusesReplies() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let page = try await client.get("/showthread.php?threadid=3600004&noseen=1").text
      #expect(page.contains("closed_thread"))
      #expect(page.contains("forum-closed.gif"))
      let form = try await client.get("/newreply.php?action=newreply&threadid=3600004").text
      #expect(form.contains("class=\"standardredirect\""))
      #expect(form.contains("Sorry! This thread is closed!"))
    }
  }

  @Test func userFilterShowsOnlyThatAuthor() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/showthread.php?threadid=\(devThread)&userid=1002&perpage=40&noseen=1").text
      #expect(html.contains("title=\"Remove user filter\""))
      #expect(!html.contains("userid-1003"))
      #expect(html.contains("userid-1002"))
    }
  }

  @Test func pagesAreWindows1252WithEntitiesForEverythingElse() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let reply = try await client.get("/showthread.php?threadid=3600002&noseen=1")
      // "Québec" with é as the single byte 0xE9, the maple leaf as an entity.
      let quebec: [UInt8] = [0x51, 0x75, 0xE9, 0x62, 0x65, 0x63]
      #expect(reply.body.firstRange(of: quebec) != nil)
      #expect(reply.text.contains("&#127809;"))
      // ‘ is 0x91 in windows-1252.
      #expect(reply.body.contains(0x91))
      #expect(!reply.body.contains(0xF0))  // no UTF-8 4-byte sequences
    }
  }

  @Test func unknownThreadIsAStandardError() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/showthread.php?threadid=1").text
      #expect(html.contains("class=\"standarderror\""))
    }
  }

  @Test func setSeenMovesTheMarker() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      _ = try await client.postMultipart(
        "/showthread.php", fields: [("action", "setseen"), ("threadid", "\(devThread)"), ("index", "70")])
      #expect(await server.state.lastRead(user: FakeForumSeed.botUserID, thread: devThread) == 70)
      _ = try await client.get("/showthread.php?action=resetseen&threadid=\(devThread)")
      #expect(await server.state.lastRead(user: FakeForumSeed.botUserID, thread: devThread) == nil)
    }
  }

  @Test func showPostRendersOnePost() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let postID = try #require(await server.state.thread(3_600_002)?.postIDs.first)
      let html = try await client.get("/showthread.php?action=showpost&postid=\(postID)").text
      #expect(html.contains("class=\"showpost\""))
      #expect(html.contains("class=\"thread:3600002\""))
      #expect(html.contains("id=\"post\(postID)\""))
    }
  }
}

@Suite("FakeForum FYAD-like pages")
struct FYADModeTests {
  @Test func postsHaveNoIndexAttribute() async throws {
    try await withForum(FakeForumConfiguration(omitPostIndexes: true)) { _, client throws in
      _ = try await client.logIn()
      let html = try await client.get("/showthread.php?threadid=3600001&perpage=40&pagenumber=2&noseen=1").text
      #expect(html.components(separatedBy: "<table class=\"post\"").count - 1 == 40)
      #expect(!html.contains("data-idx"))
      #expect(!html.contains("lastseen_icon"))
    }
  }
}
