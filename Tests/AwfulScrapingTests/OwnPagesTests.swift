import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// Edge cases on pages of our own making (Tests/AwfulScrapingTests/Pages).
struct OwnPagesTests {
  let forumURL = URL(string: "https://forums.somethingawful.com/")!

  func url(_ relative: String) -> URL { URL(string: relative, relativeTo: forumURL)!.absoluteURL }

  @Test func emptyBookmarksPageIsEmptyNotAnError() throws {
    let page = try ThreadListScraper().scrape(data: OwnPages.data("bookmarks-empty.html"), expecting: .bookmarks)
    #expect(page.isBookmarksPage)
    #expect(page.threads.isEmpty)
    #expect(page.announcements.isEmpty)
    #expect(page.page == PageNavigation(current: 1, total: 1))
  }

  @Test func pageWithoutBookmarksFormIsNotTheBookmarksPage() throws {
    #expect(throws: ScrapeError.self) {
      try ThreadListScraper().scrape(data: OwnPages.data("thread-not-a-thread.html"), expecting: .bookmarks)
    }
    #expect(throws: ScrapeError.self) {
      try ThreadListScraper().scrape(data: OwnPages.data("thread-not-a-thread.html"), expecting: .forum)
    }
  }

  @Test func threadWithOnePost() throws {
    let page = try PostsPageScraper().scrape(
      data: OwnPages.data("thread-one-post.html"), url: url("showthread.php?threadid=4000001&perpage=40"))
    #expect(page.threadID == "4000001")
    #expect(page.threadTitle == "A thread with one post")
    #expect(page.forumID == "273")
    #expect(page.page == PageNavigation(current: 1, total: 1))
    #expect(page.isBookmarked == false)
    #expect(!page.isClosed)
    #expect(page.posts.count == 1)
    let post = try #require(page.posts.first)
    #expect(post.id == "500000001")
    #expect(post.index == 1)
    #expect(post.author.name == "Some Mod")
    #expect(post.author.id == "42")
    #expect(post.author.isOriginalPoster)
    #expect(post.author.isModerator)
    #expect(!post.author.isAdministrator)
    #expect(post.author.additionalClasses == ["op"])
    #expect(post.author.customTitleHTML == "")
    #expect(post.isEditable)
    #expect(!post.authorCanReceivePrivateMessages)
    #expect(post.body == [.text("First!")])
    #expect(post.bodyHTML == "First!")
    #expect(post.dateRaw == "Mar 1, 2025 9:05 AM")
    #expect(post.date == ForumDates().date(from: "Mar 1, 2025 09:05 AM"))
    #expect(post.editNote == nil)
    // Not seen and no #pti fragment: nothing is known about the first unread post.
    #expect(page.firstUnreadIndexOnPage == nil)
  }

  @Test func firstUnreadFromTheURLFragment() throws {
    let page = try PostsPageScraper().scrape(
      data: OwnPages.data("thread-one-post.html"), url: url("showthread.php?threadid=4000001&perpage=40#pti1"))
    #expect(page.firstUnreadIndexOnPage == 1)
  }

  @Test func oddMarkup() throws {
    let page = try PostsPageScraper().scrape(
      data: OwnPages.data("thread-odd-markup.html"),
      url: url("showthread.php?threadid=4000002&perpage=40&pagenumber=3"))
    // Uppercase BODY attributes survive an element in <head> that makes libxml2 drop the real <body> tag.
    #expect(page.threadID == "4000002")
    #expect(page.forumID == "46")
    #expect(page.threadTitle == "Québec & ☃ thread")
    #expect(page.breadcrumbs.map(\.name) == ["Discussion", "Debate & Discussion"])
    #expect(page.page == PageNavigation(current: 3, total: 7))
    #expect(page.isBookmarked == true)
    #expect(page.posts.map(\.id) == ["600000001", "600000002", "600000003", "600000004"])
    // Missing data-idx mixed with present: derived from the neighbours.
    #expect(page.posts.map(\.index) == [81, 82, 83, 84])
    #expect(page.posts.map(\.indexIsExplicit) == [true, false, false, true])
    #expect(page.posts.map(\.hasBeenSeen) == [true, false, false, false])
    #expect(page.firstUnreadIndexOnPage == 2)

    let first = page.posts[0]
    #expect(first.author.name == "Zoë")
    #expect(first.author.id == "7")
    #expect(plainText(first.body).hasPrefix("Hello bold both tail and an unclosed underline"))
    #expect(plainText(first.body).contains("para"))
    #expect(plainText(first.body).contains("graph"))

    let second = page.posts[1]
    #expect(second.author.isAdministrator)
    #expect(second.authorCanReceivePrivateMessages)
    #expect(second.editNote == "Admin Person fucked around with this message at Feb 2, 2025 around 10:05")
    #expect(!second.bodyHTML.contains("fucked around"))

    let third = page.posts[2]
    #expect(third.isIgnored)
    #expect(third.author.id == "9")
    #expect(third.author.name == "Jerk")
  }

  @Test func oddMarkupBody() throws {
    let page = try PostsPageScraper().scrape(
      data: OwnPages.data("thread-odd-markup.html"),
      url: url("showthread.php?threadid=4000002&perpage=40&pagenumber=3"))
    let body = page.posts[1].body
    #expect(
      body == [
        .quote(author: "Zoë", postID: "600000001", [.text("Hello"), .lineBreak, .text("world")]),
        .lineBreak,
        .text("Look at "),
        .link(url: "https://forums.somethingawful.com/showthread.php?threadid=1", [.text("this thread")]),
        .text(" and "),
        .attachment(id: "99", url: "https://forums.somethingawful.com/attachment.php?attachmentid=99"),
        .text(" wow "),
        .smilie(code: ":bravo:", url: "http://fi.somethingawful.com/images/smilies/emot-bravo.gif"),
        .text(" so "),
        .spoiler([.text("secret text")]),
        .text(" "),
        .strike([.text("gone")]),
        .text(" "),
        .underline([.text("under")]),
        .code("let x = 1\n    indented()"),
        .list([[.text("one")], [.text("two "), .bold([.text("bold")])]]),
        .video(url: "https://www.youtube.com/embed/dQw4w9WgXcQ"),
      ])
  }

  @Test func windows1252PageLabelledLatin1() throws {
    let page = try PostsPageScraper().scrape(data: OwnPages.data("thread-windows-1252.html"))
    #expect(page.threadTitle == "Québec “quoted”")
    #expect(page.posts.first?.author.name == "René")
    #expect(page.posts.first?.body == [.text("Café “noir” — €5")])
  }

  @Test func windows1252FromTheContentTypeHeader() throws {
    // The header wins over the page's own meta.
    let page = try PostsPageScraper().scrape(data: OwnPages.data("thread-windows-1252.html"), charset: "windows-1252")
    #expect(page.posts.first?.author.name == "René")
  }

  @Test func pageThatIsNotAThreadThrows() throws {
    #expect(throws: ScrapeError.self) {
      try PostsPageScraper().scrape(data: OwnPages.data("thread-not-a-thread.html"))
    }
    #expect(throws: ScrapeError.self) {
      try PostsPageScraper().scrape(data: OwnPages.data("bookmarks-empty.html"))
    }
    #expect(throws: ScrapeError.self) { try PostsPageScraper().scrape(data: Data()) }
    #expect(throws: ScrapeError.self) { try ShowPostScraper().scrape(data: OwnPages.data("thread-not-a-thread.html")) }
    #expect(throws: ScrapeError.self) {
      try AnnouncementsScraper().scrape(data: OwnPages.data("thread-not-a-thread.html"))
    }
  }

  @Test func replyResults() throws {
    #expect(try ReplyResultScraper().scrape(data: OwnPages.data("reply-posted.html")) == .post(id: "700000001"))
    #expect(
      try ReplyResultScraper().scrape(data: OwnPages.data("reply-lastpost.html"))
        == .lastPostInThread(threadID: "4000001"))
    #expect(throws: ScrapeError.self) {
      try ReplyResultScraper().scrape(data: OwnPages.data("thread-not-a-thread.html"))
    }
    // A followed redirect lands on the thread page at the new post: the URL names it, not the quotes on the page.
    let landed = try ReplyResultScraper().scrape(
      data: OwnPages.data("thread-odd-markup.html"),
      url: url("showthread.php?threadid=4000002&pagenumber=3#post600000004"))
    #expect(landed == .post(id: "600000004"))
  }

  @Test func pageKinds() throws {
    #expect(PageKind.detect(data: try OwnPages.data("bookmarks-empty.html")) == .threadList)
    #expect(PageKind.detect(data: try OwnPages.data("thread-one-post.html")) == .posts)
    #expect(PageKind.detect(data: try OwnPages.data("thread-odd-markup.html")) == .posts)
    #expect(PageKind.detect(data: try OwnPages.data("thread-not-a-thread.html")) == nil)
    #expect(PageKind.detect(data: Data(#"{"forums": []}"#.utf8)) == .forumIndex)
    #expect(PageKind.detect(data: Data(#"{"other": 1}"#.utf8)) == nil)
  }
}
