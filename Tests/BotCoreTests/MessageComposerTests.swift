import BotCore
import ChatBridge
import ForumModel
import Foundation
import Testing

@Suite("Message composer: posts with their address, links to the page that holds them")
struct MessageComposerTests {
  let composer = MessageComposer(
    baseURL: URL(string: "https://forums.somethingawful.com/")!, excerptLength: 300, timeZone: .gmt)

  func post(id: String, index: Int, author: String = "Goon") -> Post {
    Post(
      id: id, index: index, author: PostAuthor(name: author), date: Date(timeIntervalSince1970: 1_700_000_000),
      body: [.text("Hello")])
  }

  @Test("post 96 of a thread is on page 3: the link says so, with perpage=40 and no noseen")
  func postOnPageThree() {
    let relay = composer.post(post(id: "400000105", index: 96), threadID: "3600001", threadTitle: "Busy")
    #expect(relay.address == PostAddress(threadID: "3600001", postID: "400000105", index: 96))
    #expect(
      relay.link
        == "https://forums.somethingawful.com/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post400000105")
    #expect(relay.threadLink == "https://forums.somethingawful.com/showthread.php?threadid=3600001&perpage=40")
    #expect(!relay.link.contains("noseen") && !relay.threadLink.contains("noseen"))
    #expect(relay.author == "Goon")
    #expect(relay.date?.text == "2023-11-14 22:13 UTC")
    #expect(relay.excerptLength == 300)
    #expect(relay.body == [.text("Hello")])
    #expect(
      composer.post(post(id: "1", index: 1), threadID: "7", threadTitle: "T", excerptLength: 50).excerptLength == 50)
  }

  @Test("each post a relay quotes, nested quotes too, gets the forum's goto=post link; no quotes, no links")
  func quoteLinks() {
    var quoting = post(id: "400000200", index: 3)
    quoting.body = [
      .quote(author: "A", postID: "111", [.quote(author: "B", postID: "222", [.text("inner")]), .text("outer")]),
      .quote(author: "C", postID: nil, [.text("no source")]), .text("answer"),
    ]
    let relay = composer.post(quoting, threadID: "3600001", threadTitle: "Busy")
    #expect(
      relay.quoteLinks == [
        "111": "https://forums.somethingawful.com/showthread.php?goto=post&postid=111#post111",
        "222": "https://forums.somethingawful.com/showthread.php?goto=post&postid=222#post222",
      ])
    #expect(composer.post(post(id: "1", index: 1), threadID: "7", threadTitle: "T").quoteLinks == nil)
  }

  @Test("pages hold 40 posts", arguments: [(1, 1), (40, 1), (41, 2), (80, 2), (81, 3), (96, 3), (0, 1)])
  func pages(index: Int, page: Int) {
    let relay = composer.post(post(id: "9", index: index), threadID: "5", threadTitle: "T")
    #expect(relay.address.page == page)
    #expect(relay.link.hasSuffix("&perpage=40&pagenumber=\(page)#post9"))
  }

  @Test("a summary links the newest post it counts on its page, else the thread")
  func summary() {
    let summary = composer.summary(
      threadID: "3600001", threadTitle: "Busy", count: 3, authors: ["a", "b", "c"],
      latest: post(id: "400000105", index: 96, author: "c"), afterReplayCap: false)
    #expect(
      summary.latestLink
        == "https://forums.somethingawful.com/showthread.php?threadid=3600001&perpage=40&pagenumber=3#post400000105")
    #expect(summary.latestAuthor == "c")
    #expect(summary.threadLink == "https://forums.somethingawful.com/showthread.php?threadid=3600001&perpage=40")
    let unknown = composer.summary(
      threadID: "7", threadTitle: "T", count: 1, authors: ["a"], latest: nil, afterReplayCap: true)
    #expect(unknown.latestLink == "https://forums.somethingawful.com/showthread.php?threadid=7&perpage=40")
    #expect(unknown.afterReplayCap)
  }

  @Test("announcements link the announcements page; new threads their first page")
  func otherLinks() {
    let announcement = composer.announcement(
      Announcement(title: nil, author: PostAuthor(name: "Lowtax"), date: nil, bodyHTML: "", body: [.text("Hi")]))
    #expect(announcement.link == "https://forums.somethingawful.com/announcement.php?forumid=1")
    #expect(announcement.title == nil && announcement.author == "Lowtax" && announcement.excerptLength == 300)
    let notice = composer.newThread(ThreadListThread(id: "42", title: "New", authorName: "bob"), forumTitle: "GBS")
    #expect(
      notice
        == NewThreadNotice(
          forumName: "GBS", title: "New", author: "bob",
          link: "https://forums.somethingawful.com/showthread.php?threadid=42&perpage=40"))
  }

  @Test("an announcement dated by the day alone shows the day, not a made-up hour")
  func announcementDay() {
    // "Sep 05, 2010" on the page: midnight in the forum's zone (Chicago), 05:00 UTC.
    let midnightChicago = Date(timeIntervalSince1970: 1_283_662_800)
    let dayOnly = composer.announcement(
      Announcement(
        author: PostAuthor(name: "SA Support Robot"), date: midnightChicago, dateHasTime: false, bodyHTML: "",
        body: []))
    #expect(dayOnly.date?.text == "2010-09-05")
    let timed = composer.announcement(
      Announcement(author: PostAuthor(name: "Lowtax"), date: midnightChicago, bodyHTML: "", body: []))
    #expect(timed.date?.text == "2010-09-05 05:00 UTC")
  }

  @Test("a base URL without a trailing slash gives the same links")
  func baseWithoutSlash() {
    let local = MessageComposer(baseURL: URL(string: "http://127.0.0.1:8080")!)
    #expect(
      local.post(post(id: "2", index: 41), threadID: "5", threadTitle: "T").link
        == "http://127.0.0.1:8080/showthread.php?threadid=5&perpage=40&pagenumber=2#post2")
  }

  @Test("dates are written in the configured time zone")
  func timeZone() throws {
    let berlin = MessageComposer(
      baseURL: URL(string: "https://f.example/")!, timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
    let dateText = try #require(berlin.post(post(id: "1", index: 1), threadID: "1", threadTitle: "T").date?.text)
    // The zone's name is the platform's ("CET" or "GMT+1"); the time is an hour ahead of UTC.
    #expect(dateText.hasPrefix("2023-11-14 23:13 ") && !dateText.hasSuffix("UTC"))
  }
}
