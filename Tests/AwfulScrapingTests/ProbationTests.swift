import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// The probation banner (`div#probation_warn`) is a state, not an error: pages that carry it are read as usual and
/// report the probation, with its end when the banner names one.
struct ProbationTests {
  let forumURL = URL(string: "https://forums.somethingawful.com/")!

  @Test func bookmarksPageWithTheBannerIsReadWithItsProbation() throws {
    let data = try OwnPages.data("probation.html")
    #expect(try ErrorPageScraper().scrape(data: data) == nil)
    #expect(PageKind.detect(data: data) == .threadList)
    let page = try ThreadListScraper().scrape(data: data, expecting: .bookmarks)
    #expect(page.isBookmarksPage)
    let probation = try #require(page.probation)
    #expect(probation.message.hasPrefix("YOU ARE A HORRIBLE MONSTER ON PROBATION!"))
    #expect(probation.untilRaw == "Mar 2, 2025 10:00")
    // 10:00 in Chicago (CST, UTC-6).
    #expect(probation.until == Date(timeIntervalSince1970: 1_740_931_200))
  }

  @Test func threadPageWithTheBannerHasItsPostsAndTheProbation() throws {
    let data = try OwnPages.data("probation-thread.html")
    #expect(PageKind.detect(data: data) == .posts)
    let page = try PostsPageScraper().scrape(
      data: data, url: URL(string: "showthread.php?threadid=4000001&perpage=40", relativeTo: forumURL))
    #expect(page.threadID == "4000001")
    #expect(page.posts.map(\.id) == ["500000001"])
    let probation = try #require(page.probation)
    #expect(probation.message.hasPrefix("TAKE A BREAK You have been put on probation until Jun 25, 2025 13:50."))
    #expect(probation.untilRaw == "Jun 25, 2025 13:50")
    // 13:50 in Chicago (CDT, UTC-5).
    #expect(probation.until == Date(timeIntervalSince1970: 1_750_877_400))
  }

  @Test func pagesWithoutTheBannerHaveNoProbation() throws {
    #expect(try ThreadListScraper().scrape(data: OwnPages.data("bookmarks-empty.html")).probation == nil)
    #expect(try PostsPageScraper().scrape(data: OwnPages.data("thread-one-post.html")).probation == nil)
  }

  /// None of the captured pages was taken on probation.
  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func capturedPagesHaveNoProbation() throws {
    func document(_ name: String) throws -> HTMLDocument {
      try HTMLDocument(data: CapturedPages.data(name), url: CapturedPages.url(name))
    }
    #expect(try ThreadListScraper().scrape(document("bookmarkthreads.html")).probation == nil)
    #expect(try ThreadListScraper().scrape(document("forumdisplay.html")).probation == nil)
    #expect(try PostsPageScraper().scrape(document("showthread.html")).probation == nil)
    #expect(try PrivateMessageFolderScraper().scrape(document("private-list.html")).probation == nil)
    #expect(try PrivateMessageScraper().scrape(document("private-one.html")).probation == nil)
  }

  @Test(arguments: [
    (
      "You have been put on probation until Jan 18, 2013 22:22 CST. You cannot post.", "Jan 18, 2013 22:22 CST",
      1_358_569_320.0
    ),
    (
      "TAKE A BREAK You have been put on probation until Jun 25, 2025 13:50. You cannot post while on probation.",
      "Jun 25, 2025 13:50", 1_750_877_400
    ),
    ("You cannot post until Mar 2, 2025 10:00", "Mar 2, 2025 10:00", 1_740_931_200),
    (
      "Read the rules until you know them. You are on probation until Jun 25, 2025 1:50 PM!", "Jun 25, 2025 1:50 PM",
      1_750_877_400
    ),
  ])
  func theEndIsReadFromTheBanner(text: String, raw: String, epoch: Double) throws {
    let html = "<html><body><div id=\"probation_warn\"><h4>X</h4>\(text)</div></body></html>"
    let probation = try #require(ProbationScraper().scrape(HTMLDocument(string: html)))
    #expect(probation.untilRaw == raw)
    #expect(probation.until == Date(timeIntervalSince1970: epoch))
  }

  @Test func aBannerWithoutADateIsStillAProbation() throws {
    let html = """
      <html><body><div id="probation_warn"><h4>YOU ARE A HORRIBLE MONSTER ON PROBATION!</h4>
      <p>You won't be able to post for a while.</p></div></body></html>
      """
    let probation = try #require(ProbationScraper().scrape(HTMLDocument(string: html)))
    #expect(probation.message == "YOU ARE A HORRIBLE MONSTER ON PROBATION! You won't be able to post for a while.")
    #expect(probation.until == nil)
    #expect(probation.untilRaw == nil)

    let vague = "<html><body><div id=\"probation_warn\">On probation until further notice.</div></body></html>"
    let untilVague = try #require(ProbationScraper().scrape(HTMLDocument(string: vague)))
    #expect(untilVague.untilRaw == "further notice")
    #expect(untilVague.until == nil)
  }

  /// Posting refused because of the probation is the one error probation still is; any other error page an account
  /// on probation sees keeps its own meaning.
  @Test func refusalsNamingTheProbationAreProbationErrors() throws {
    guard case .probation(let message)? = try ErrorPageScraper().scrape(data: OwnPages.data("probation-refused.html"))
    else {
      Issue.record("a refusal naming the probation should be .probation")
      return
    }
    #expect(message.hasPrefix("You are on probation and cannot post"))
    #expect(throws: ForumPageError.probation(message: message)) {
      try ReplyFormScraper().scrape(data: OwnPages.data("probation-refused.html"))
    }
    guard
      case .standard(_, let notFound)? = try ErrorPageScraper().scrape(
        data: OwnPages.data("probation-not-found.html"))
    else {
      Issue.record("a not-found page shown on probation is still a standard error")
      return
    }
    #expect(notFound == "Specified thread was not found in the live forums.")
  }

  /// A page with the banner but no reply form: the account cannot post.
  @Test func replyFormPageWithoutAFormOnProbationIsTheProbation() throws {
    #expect(throws: ForumPageError.self) { try ReplyFormScraper().scrape(data: OwnPages.data("probation.html")) }
    #expect(throws: ScrapeError.self) { try ReplyFormScraper().scrape(data: OwnPages.data("bookmarks-empty.html")) }
  }
}
