import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// EXPECTED.md, "PostsPageScrapingTests", "PostScrapingTests" and the computed posts-page values.
@Suite(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct ConformancePostsPageTests {
  let scraper = PostsPageScraper()

  func page(_ name: String, url: String) throws -> PostsPage {
    try scraper.scrape(data: CapturedPages.data(name), url: CapturedPages.url(url))
  }

  func epoch(_ date: Date?) -> Int? { date.map { Int($0.timeIntervalSince1970) } }

  @Test func canadianPoliticsThread() throws {
    let page = try page("showthread.html", url: "showthread.php?threadid=3507451&perpage=40&pagenumber=5")
    #expect(page.posts.count == 40)
    #expect(page.threadID == "3507451")
    #expect(page.threadTitle == "Canadian Politics Thread: Revenge of Trudeaumania: Brawl Me, Maybe")
    #expect(!page.isClosed)
    #expect(page.forumID == "46")
    #expect(page.breadcrumbs.first?.name == "Discussion")
    #expect(page.breadcrumbs.last?.name == "Debate & Discussion")
    #expect(page.page == PageNavigation(current: 5, total: 151))
    #expect(page.isBookmarked == true)
    #expect(!page.isSingleUserFilterEnabled)
    #expect(page.postsPerPage == 40)

    let first = page.posts[0]
    #expect(first.id == "407741839")
    #expect(first.authorCanReceivePrivateMessages)
    #expect(first.bodyHTML.contains("more I think about it"))
    #expect(plainText(first.body).contains("more I think about it"))
    #expect(first.index == 161)
    #expect(first.indexIsExplicit)
    #expect(epoch(first.date) == 1_348_157_760)
    #expect(first.dateRaw == "Sep 20, 2012 11:16")
    #expect(first.hasBeenSeen)
    #expect(!first.isEditable)
    #expect(!first.isIgnored)
    #expect(first.author.name == "Majuju")
    #expect(first.author.id == "108110")
    #expect(epoch(first.author.regdate) == 1_167_372_000)
    #expect(first.author.customTitleHTML?.contains("AAA") == true)
    #expect(first.author.customTitleHTML?.contains("class=\"pb\"") == false)
    #expect(first.editNote == nil)
    // The quote at the top of the first post, with its author and post id.
    guard case .quote(let author, let postID, let quoted)? = first.body.first else {
      Issue.record("the first post should open with a quote: \(first.body)")
      return
    }
    #expect(author == "MikeSevigny")
    #expect(postID == "407732523")
    #expect(plainText(quoted) == "BC's most evil premier")

    #expect(page.posts[10].id == "407751664")
    #expect(page.posts[10].bodyHTML.contains("Québec"))
    #expect(plainText(page.posts[10].body).contains("Québec"))

    #expect(page.posts[12].id == "407751956")
    #expect(page.posts[12].author.name == "Dreylad")
    #expect(page.posts[12].author.isOriginalPoster)

    #expect(page.posts[14].id == "407753032")
    #expect(page.posts[14].author.name == "angerbot")
    #expect(page.posts[14].author.isAdministrator)
    #expect(!page.posts[14].author.isModerator)

    let last = try #require(page.posts.last)
    #expect(last.id == "407769816")
    #expect(last.index == 200)

    #expect(page.posts.filter { $0.hasBeenSeen }.count == 11)
    #expect(page.posts[0...10].allSatisfy { $0.hasBeenSeen })
    #expect(page.firstUnreadIndexOnPage == 12)
    #expect(page.posts.map(\.index) == Array(161...200))
  }

  @Test func editNotesAreKeptApart() throws {
    let page = try page("showthread.html", url: "showthread.php?threadid=3507451&perpage=40&pagenumber=5")
    let edited = page.posts.filter { $0.editNote != nil }
    #expect(!edited.isEmpty)
    for post in edited {
      #expect(post.editNote?.contains("fucked around with this message") == true)
      #expect(!plainText(post.body).contains("fucked around with this message"))
      #expect(!post.bodyHTML.contains("editedby"))
    }
  }

  @Test func newPageNavigation() throws {
    let page = try page("showthread2.html", url: "showthread.php?threadid=3526065&perpage=40&pagenumber=17")
    #expect(page.page == PageNavigation(current: 17, total: 21))
    #expect(page.threadID == "3526065")
    #expect(page.forumID == "1")
    #expect(page.posts.first?.id == "411639264")
    #expect(page.posts.first?.index == 641)
    #expect(page.posts.first?.author.name == "Pickled Tink")
    #expect(page.posts.first?.author.id == "186533")
    #expect(page.posts.first?.author.additionalClasses == ["platinum"])
    #expect(epoch(page.posts.first?.date) == epoch(ForumDates().date(from: "Jan 18, 2013 7:28 PM")))
    #expect(page.posts.first?.dateRaw == "Jan 18, 2013 7:28 PM")
  }

  @Test func fyadThreadIndex() throws {
    let page = try page("showthread-fyad.html", url: "showthread.php?threadid=3589200&perpage=40&pagenumber=2")
    #expect(page.posts.count == 10)
    #expect(page.page?.current == 2)
    #expect(page.isBookmarked == false)
    #expect(page.posts.allSatisfy { !$0.indexIsExplicit })
    #expect(page.posts.map(\.index) == Array(41...50))
    // FYAD puts the sidebar inside the body cell; the author still comes out, and not in the body.
    let first = try #require(page.posts.first)
    #expect(first.author.name == "hetero princess")
    #expect(first.author.id == "186013")
    #expect(!plainText(first.body).contains("hetero princess"))
  }

  @Test func fyadThreadPageOne() throws {
    let page = try page("showthread-fyad2.html", url: "showthread.php?threadid=3599117&perpage=40&pagenumber=1")
    #expect(page.posts.count == 40)
    #expect(page.page?.current == 1)
    let first = page.posts[0]
    #expect(first.author.name == "BiG TrUcKs !!!")
    #expect(epoch(first.date) == 1_388_547_060)
    #expect(plainText(first.body).contains("twitter assholes"))
    #expect(!first.indexIsExplicit)
    #expect(first.index == 1)
    let second = page.posts[1]
    #expect(second.author.name == "syxxcowz")
    #expect(epoch(second.date) == 1_388_547_180)
    #expect(plainText(second.body).contains("hate twiter"))
    #expect(!second.indexIsExplicit)
    #expect(second.index == 2)
    #expect(page.posts.map(\.index) == Array(1...40))
  }

  @Test func lastPage() throws {
    let page = try page("showthread-last.html", url: "showthread.php?threadid=3179230&perpage=40&goto=lastpost")
    #expect(page.posts.count == 33)
    #expect(page.isClosed)
    let last = try #require(page.posts.last)
    #expect(last.author.name == "Ashmole")
    #expect(epoch(last.date) == 1_357_608_060)
    #expect(page.breadcrumbs.map(\.forumID) == ["51", "44", "191"])
  }

  @Test func forumPageIsNotAThreadPage() throws {
    #expect(throws: ScrapeError.self) {
      try page("forumdisplay.html", url: "showthread.php?threadid=1")
    }
    #expect(throws: ScrapeError.self) {
      try page("bookmarkthreads.html", url: "showthread.php?threadid=1")
    }
  }
}
