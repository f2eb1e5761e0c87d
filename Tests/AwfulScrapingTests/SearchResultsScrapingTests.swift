import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// The search results scraper against pages written for the repository in the markup of Awful.app's search
/// scraper (no results page of the forum was ever captured), and against the captured "requires Platinum" page.
struct SearchResultsScrapingTests {
  let pageURL = URL(string: "https://forums.somethingawful.com/query.php?action=results&qid=7000042&page=2")!

  @Test func readsEveryFieldOfAResult() throws {
    let page = try SearchResultsScraper().scrape(data: OwnPages.data("search-results.html"), url: pageURL)
    #expect(page.queryID == "7000042")
    #expect(page.navigation == PageNavigation(current: 2, total: 3))
    // The words searched for hold "12 results": the count is read from its own line only.
    #expect(page.totalResults == 43)
    #expect(page.info.contains("Text contains: 12 results dog <b>breath</b>"))
    #expect(page.results.count == 2)
    let first = try #require(page.results.first)
    #expect(first.number == 21)
    #expect(first.postID == "500000123")
    #expect(first.threadID == "3900001")
    #expect(first.threadTitle == "Dog breath & other <troubles>")
    #expect(first.forumID == "273")
    #expect(first.forumTitle == "General Bullshit")
    #expect(first.author == ForumUserReference(name: "Lowtax", id: "27691"))
    #expect(first.dateText == "Mar 2, 2025 10:00")
    let expected = ForumDates().date(from: "Mar  2, 2025 10:00")
    #expect(first.date != nil && first.date == expected)
    #expect(first.snippetHTML.contains("<em>dog</em>"))
    #expect(plainText(first.snippet) == "…my dog has terrible breath, what do I do")
    #expect(first.snippet.contains(.italic([.text("dog")])))
  }

  @Test func hostileSnippetIsTextNeverMarkup() throws {
    let page = try SearchResultsScraper().scrape(data: OwnPages.data("search-results.html"), url: pageURL)
    let hostile = try #require(page.results.last)
    #expect(hostile.postID == "500000999")
    #expect(hostile.threadID == nil)
    #expect(hostile.author?.name == "@room")
    // A date the forum's formats do not read stays as printed, never a wrong date.
    #expect(hostile.date == nil)
    #expect(hostile.dateText == "sometime yesterday")
    let text = plainText(hostile.snippet)
    #expect(text.contains("@room"))
    #expect(!text.contains("<"))
    #expect(!text.contains("alert"))
    #expect(text.contains("[url=http://evil.example/]click[/url]"))
  }

  @Test func noResultsIsAnEmptyPageNotAnError() throws {
    let page = try SearchResultsScraper().scrape(data: OwnPages.data("search-none.html"))
    #expect(page.isEmpty)
    #expect(page.totalResults == nil)
    #expect(page.navigation == nil)
    #expect(page.queryID == nil)
    #expect(page.info.hasSuffix("There were no results for your search."))
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
  func platinumPageIsARefusalWithTheForumsSentence() throws {
    #expect {
      try SearchResultsScraper().scrape(data: CapturedPages.data("error-requires-plat.html"))
    } throws: { error in
      guard let refusal = error as? SearchRefusal, refusal.reason == .requiresPlatinum else { return false }
      return refusal.message.contains("only accessible to Platinum members")
        && refusal.description.contains("not a Platinum account")
    }
  }

  @Test func searchLimitPageIsARefusalWithItsWait() throws {
    #expect {
      try SearchResultsScraper().scrape(data: OwnPages.data("search-too-soon.html"))
    } throws: { error in
      guard let refusal = error as? SearchRefusal else { return false }
      return refusal.reason == .tooSoon(retryAfter: 13) && refusal.message.contains("between searches")
    }
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason)) func otherErrorPagesKeepTheirOwnType() throws {
    #expect {
      try SearchResultsScraper().scrape(data: CapturedPages.data("error-must-register.html"))
    } throws: { error in
      if case .loggedOut(let message)? = error as? ForumPageError {
        return message.contains("must be a registered forums member")
      }
      return false
    }
    #expect {
      try SearchResultsScraper().scrape(data: CapturedPages.data("database-unavailable.html"))
    } throws: { error in
      if case .databaseUnavailable? = error as? ForumPageError { return true }
      return false
    }
  }

  @Test(.enabled(if: CapturedPages.available, CapturedPages.skipReason)) func theSearchFormIsNotAResultsPage() throws {
    #expect(throws: ScrapeError.self) {
      try SearchResultsScraper().scrape(data: CapturedPages.data("query.html"))
    }
  }
}
