import AwfulBotTestKit
import AwfulScraping
import ForumModel
import Foundation
import Testing

@testable import FakeForum

/// The Quote button's form, the forum's refusals of a reply (flood check, closed thread, probation), and where a new
/// reply lands.
@Suite("FakeForum quotes and reply refusals")
struct QuoteAndRefusalTests {
  // The forum's clock is the kit's `TestClock`, moved by hand: the flood check's window is exact and no test sleeps.
  static let floodSentence30 = "This forum requires that you wait 30 seconds between posts."

  func charset(_ reply: ForumTestClient.Reply) -> String? {
    reply.contentType?.components(separatedBy: "charset=").last
  }

  func form(_ reply: ForumTestClient.Reply, _ client: ForumTestClient) throws -> ReplyForm {
    try ReplyFormScraper().scrape(data: Data(reply.body), url: client.baseURL, charset: charset(reply))
  }

  func errorPage(_ reply: ForumTestClient.Reply, _ client: ForumTestClient) throws -> ForumPageError? {
    try ErrorPageScraper().scrape(data: Data(reply.body), url: client.baseURL, charset: charset(reply))
  }

  // MARK: Quote

  @Test func quoteFormQuotesThePostWithoutTheQuotesItHolds() async throws {
    try await withForum { server, client throws in
      let thread = try await server.state.addThread(forum: 273, title: "Quotes", author: 1002, body: "first")
      let postID = try await server.state.addPost(
        thread: thread, author: 1003,
        body: """
          [quote="Pickled Tink" post="1"]
          first [quote]deeper[/quote] still quoted
          [/quote]
          My own <words> & “more”.
          [QUOTE=someone]again[/QUOTE]
          End 😀 [/quote] stray
          """)
      _ = try await client.logIn()
      let reply = try await client.get("/newreply.php?action=newreply&postid=\(postID)")
      // HTML-escaped inside the textarea, as the forum writes it.
      #expect(reply.text.contains("[quote=&quot;Zoë Québec&quot; post=&quot;\(postID)&quot;]"))
      #expect(reply.text.contains("My own &lt;words&gt; &amp;"))
      let form = try form(reply, client)
      #expect(form.fields.first { $0.name == "threadid" }?.value == "\(thread)")
      #expect(form.fields.first { $0.name == "action" }?.value == "postreply")
      #expect(
        form.message
          == "[quote=\"Zoë Québec\" post=\"\(postID)\"]\nMy own <words> & “more”.\n\nEnd 😀 [/quote] stray\n[/quote]\n\n"
      )
    }
  }

  @Test func quotingAnHTMLPostKeepsItsTextAndLineBreaksOnly() async throws {
    try await withForum { server, client throws in
      let thread = try await server.state.addThread(forum: 273, title: "HTML", author: 1002, body: "first")
      let postID = try await server.state.addPost(
        thread: thread, author: 1002,
        body: .html(
          "<div class=\"bbc-block\"><h4>Zoë posted:</h4><blockquote><div>old</div></blockquote></div>"
            + "Fish &amp; chips<br />\n<b>bold</b> &#8212; done"))
      _ = try await client.logIn()
      let form = try form(try await client.get("/newreply.php?action=newreply&postid=\(postID)"), client)
      #expect(form.message == "[quote=\"Pickled Tink\" post=\"\(postID)\"]\nFish & chips\nbold — done\n[/quote]\n\n")
    }
  }

  @Test func quotingAnUnknownPostIsTheInvalidPostPage() async throws {
    try await withForum { _, client throws in
      _ = try await client.logIn()
      let reply = try await client.get("/newreply.php?action=newreply&postid=999999999")
      guard case .standard(_, let message)? = try errorPage(reply, client) else {
        Issue.record("expected a standard error page")
        return
      }
      #expect(ForumNotFound(errorMessage: message)?.subject == .post)
    }
  }

  @Test func quotingAPostOfAClosedThreadIsTheClosedPage() async throws {
    try await withForum { server, client throws in
      let postID = try #require(await server.state.thread(3_600_004)?.postIDs.first)
      _ = try await client.logIn()
      let reply = try await client.get("/newreply.php?action=newreply&postid=\(postID)")
      guard case .threadClosed? = try errorPage(reply, client) else {
        Issue.record("expected the closed-thread page")
        return
      }
    }
  }

  // MARK: Flood check

  @Test func floodCheckRefusesAReplyWithinTheIntervalAndTakesItAfter() async throws {
    let clock = TestClock()
    try await withForum(FakeForumConfiguration(floodSeconds: 30, now: { clock.now() })) { server, client throws in
      _ = try await client.logIn()
      #expect(await server.state.faults() == [.floodCheck(seconds: 30)])
      let first = try await client.reply(thread: 3_600_002, message: "first")
      #expect(first.text.contains("goto=post"))
      let count = await server.state.thread(3_600_002)?.postCount

      clock.advance(by: 10.5)
      let early = try await client.reply(thread: 3_600_002, message: "too soon")
      #expect(early.text.contains("class=\"standarderror\""))
      #expect(early.text.contains("\(Self.floodSentence30) Please try again in 20 seconds."))
      #expect(await server.state.thread(3_600_002)?.postCount == count)
      guard case .floodCheck(_, let interval, let retryAfter)? = try errorPage(early, client) else {
        Issue.record("the flood check page is not read as one")
        return
      }
      #expect(interval == 30)
      #expect(retryAfter == 20)

      // Never "0 seconds": the last fraction of a second is still one to wait.
      clock.advance(by: 19.2)
      let almost = try await client.reply(thread: 3_600_002, message: "still too soon")
      #expect(almost.text.contains("Please try again in 1 seconds."))

      clock.advance(by: 0.5)
      let later = try await client.reply(thread: 3_600_002, message: "on time")
      #expect(later.text.contains("goto=post"))
      #expect(await server.state.thread(3_600_002)?.postCount == count.map { $0 + 1 })
    }
  }

  @Test func floodCheckIsPerAccountAndOffByDefault() async throws {
    let clock = TestClock()
    try await withForum(FakeForumConfiguration(now: { clock.now() })) { server, client throws in
      _ = try await client.logIn()
      #expect(await server.state.faults().isEmpty)
      #expect(try await client.reply(thread: 3_600_002, message: "one").text.contains("goto=post"))
      #expect(try await client.reply(thread: 3_600_002, message: "two").text.contains("goto=post"))

      await server.state.setFault(.floodCheck(seconds: 30))
      #expect(try await client.reply(thread: 3_600_002, message: "three").text.contains("Please try again in 30"))
      // Another account has not posted: it is not held back.
      let other = ForumTestClient(baseURL: client.baseURL)
      _ = try await other.logIn(username: "Pickled Tink", password: "pickles")
      #expect(try await other.reply(thread: 3_600_002, message: "mine").text.contains("goto=post"))
      try await other.shutdown()
      // A preview posts nothing, so the flood check does not stop it.
      let form = try await client.get("/newreply.php?action=newreply&threadid=3600002").text
      let preview = try await client.postMultipart(
        "/newreply.php",
        fields: [
          ("action", "postreply"), ("threadid", "3600002"), ("formkey", hidden("formkey", in: form)),
          ("form_cookie", hidden("form_cookie", in: form)), ("message", "[b]look[/b]"), ("preview", "Preview Reply"),
        ])
      #expect(preview.text.contains("id=\"preview\""))
    }
  }

  @Test func floodCheckThroughTheAdminAPIAndBackOnReset() async throws {
    try await withForum(FakeForumConfiguration(floodSeconds: 15)) { server, client throws in
      _ = try await client.admin.send("POST", "/_fake/faults", json: #"{"kind": "floodCheck", "seconds": 5}"#)
      #expect(await server.state.faults() == [.floodCheck(seconds: 5)])
      let listed = try await client.admin.send("GET", "/_fake/faults")
      #expect(listed.text.contains("floodCheck"))
      _ = try await client.admin.send("DELETE", "/_fake/faults/floodCheck")
      #expect(await server.state.faults().isEmpty)
      _ = try await client.admin.send("POST", "/_fake/faults", json: #"{"kind": "floodCheck"}"#)
      #expect(await server.state.faults() == [.floodCheck(seconds: 30)])
      // A reset is the forum as configured: its own flood check again.
      _ = try await client.admin.send("POST", "/_fake/reset", json: #"{"seed": "demo"}"#)
      #expect(await server.state.faults() == [.floodCheck(seconds: 15)])
    }
  }

  // MARK: Closed thread, probation

  @Test func aThreadClosedAfterTheFormWasShownRefusesTheReply() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      let form = try await client.get("/newreply.php?action=newreply&threadid=3600002").text
      try await server.state.setClosed(thread: 3_600_002, true)
      let count = await server.state.thread(3_600_002)?.postCount
      let reply = try await client.postMultipart(
        "/newreply.php",
        fields: [
          ("action", "postreply"), ("threadid", "3600002"), ("formkey", hidden("formkey", in: form)),
          ("form_cookie", hidden("form_cookie", in: form)), ("message", "hello"), ("submit", "Submit Reply"),
        ])
      #expect(reply.text.contains("class=\"standardredirect\""))
      #expect(reply.text.contains("Sorry! This thread is closed!"))
      #expect(await server.state.thread(3_600_002)?.postCount == count)
      guard case .threadClosed(let title, let message)? = try errorPage(reply, client) else {
        Issue.record("expected the closed-thread page")
        return
      }
      #expect(ForumPageError.closedSentence(title: title, message: message) == "Sorry! This thread is closed!")
    }
  }

  @Test func anAccountOnProbationCannotReply() async throws {
    try await withForum { server, client throws in
      _ = try await client.logIn()
      await server.state.setFault(.probation)
      let count = await server.state.thread(3_600_002)?.postCount
      let reply = try await client.reply(thread: 3_600_002, message: "hello")
      guard case .probation(let message)? = try errorPage(reply, client) else {
        Issue.record("expected the probation refusal")
        return
      }
      #expect(message.contains("You are on probation and cannot post"))
      #expect(await server.state.thread(3_600_002)?.postCount == count)
    }
  }

  // MARK: Where a reply lands

  /// 40 posts a page: the 40th post is the last of page 1, the 41st the first of page 2.
  @Test(arguments: [(39, 1), (40, 2)])
  func aNewReplyLandsOnThePageThatHoldsIt(existing: Int, page: Int) async throws {
    try await withForum { server, client throws in
      let thread = try await server.state.addThread(forum: 273, title: "Pages", author: 1002, body: "post 1")
      for n in 2...existing {
        try await server.state.addPost(thread: thread, author: 1003, body: "post \(n)")
      }
      _ = try await client.logIn()
      let reply = try await client.reply(thread: thread, message: "the new one")
      let postID = try #require(await server.state.thread(thread)?.postIDs.last)
      #expect(reply.text.contains("showthread.php?goto=post&amp;postid=\(postID)"))
      #expect(await server.state.post(postID)?.index == existing + 1)

      let located = try await client.get("/showthread.php?goto=post&postid=\(postID)&perpage=40")
      #expect(
        located.header("Location")?.hasSuffix("/showthread.php?threadid=\(thread)&pagenumber=\(page)#post\(postID)")
          == true)
      let shown = try await client.get("/showthread.php?threadid=\(thread)&perpage=40&pagenumber=\(page)&noseen=1")
      let posts = try PostsPageScraper().scrape(data: Data(shown.body), url: client.baseURL, charset: charset(shown))
      #expect(posts.posts.last?.id == "\(postID)")
      #expect(posts.posts.last?.index == existing + 1)
    }
  }
}

/// A hidden field's value in a form page, read crudely (the scraper is tested on its own).
private func hidden(_ name: String, in html: String) -> String {
  guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return "" }
  return String(html[range.upperBound...].prefix { $0 != "\"" })
}

extension ForumTestClient {
  /// Shows the reply form of `thread` and submits it with `message`, as a browser would.
  fileprivate func reply(thread: Int, message: String) async throws -> Reply {
    let form = try await get("/newreply.php?action=newreply&threadid=\(thread)").text
    return try await postMultipart(
      "/newreply.php",
      fields: [
        ("action", "postreply"), ("threadid", "\(thread)"), ("formkey", hidden("formkey", in: form)),
        ("form_cookie", hidden("form_cookie", in: form)), ("message", message), ("parseurl", "yes"),
        ("submit", "Submit Reply"),
      ])
  }
}
