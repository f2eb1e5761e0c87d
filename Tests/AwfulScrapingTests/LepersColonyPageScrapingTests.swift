import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// EXPECTED.md, "LepersColonyPageScrapingTests" (`banlist`): every value it lists, and the page around them.
@Suite(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct LepersColonyPageScrapingTests {
  func page() throws -> LepersColonyPage {
    try LepersColonyScraper().scrape(data: CapturedPages.data("banlist.html"), url: CapturedPages.url("banlist.php"))
  }

  @Test func fiftyPunishments() throws {
    #expect(try page().punishments.count == 50)
  }

  @Test func firstRow() throws {
    let first = try #require(try page().punishments.first)
    #expect(first.sentence == .probation)
    #expect(first.postID == "421665753")
    #expect(first.date == Date(timeIntervalSince1970: 1_384_099_800))
    #expect(first.subject == ForumUserReference(name: "Kheldragar", id: "202925"))
    #expect(first.reasonHTML.contains("shitty as you"))
    #expect(plainText(first.reason).contains("shitty as you"))
    #expect(first.requester == ForumUserReference(name: "Ralp", id: "61644"))
    #expect(first.approver == first.requester)
    #expect(first.probationLength == "6 hours")
  }

  @Test func sentencesCounted() throws {
    let sentences = try page().punishments.map(\.sentence)
    #expect(sentences.filter { $0 == .probation }.count == 41)
    #expect(sentences.filter { $0 == .autoban }.count == 6)
    #expect(sentences.filter { $0 == .ban }.count == 3)
  }

  @Test func otherRows() throws {
    let punishments = try page().punishments
    // The second row: an autoban, no probation length, the same mod asking and approving.
    let autoban = punishments[1]
    #expect(autoban.sentence == .autoban)
    #expect(autoban.probationLength == nil)
    #expect(autoban.postID == "421660671")
    #expect(autoban.subject == ForumUserReference(name: "goatbeard", id: "202731"))
    #expect(autoban.reasonHTML == "Breaking the rules with a erotic thread!")
    // A ban requested by one mod and approved by another admin.
    let ban = try #require(punishments.first { $0.subject.name == "poptart_fairy" })
    #expect(ban.sentence == .ban)
    #expect(ban.requester == ForumUserReference(name: "Kewpuh", id: "43626"))
    #expect(ban.approver == ForumUserReference(name: "elpintogrande", id: "12831"))
    // Newest first, as the page lists them.
    #expect(punishments.map(\.date) == punishments.map(\.date).sorted(by: >))
    // Every probation of this page states its length.
    #expect(punishments.filter { $0.sentence == .probation }.allSatisfy { $0.probationLength != nil })
  }

  @Test func navigationFromThePageSelect() throws {
    #expect(try page().navigation == PageNavigation(current: 1, total: 2369))
  }

  /// StandardErrorScrapingTests: `banlist` is not an error page.
  @Test func banlistIsNotAnErrorPage() throws {
    #expect(try ErrorPageScraper().scrape(data: CapturedPages.data("banlist.html")) == nil)
  }

  /// An error page served in place of the Leper's Colony is its typed error, never an empty colony.
  @Test func errorPagesInPlaceOfTheColony() throws {
    let scraper = LepersColonyScraper()
    #expect {
      try scraper.scrape(data: CapturedPages.data("error-must-register.html"))
    } throws: { error in
      if case ForumPageError.loggedOut = error { return true }
      return false
    }
    #expect {
      try scraper.scrape(data: CapturedPages.data("error-requires-plat.html"))
    } throws: { error in
      guard case ForumPageError.standard(_, let message) = error else { return false }
      return message.contains("only accessible to Platinum members")
    }
    #expect {
      try scraper.scrape(data: CapturedPages.data("database-unavailable.html"))
    } throws: { error in
      if case ForumPageError.databaseUnavailable = error { return true }
      return false
    }
    #expect {
      try scraper.scrape(data: CapturedPages.data("banned.html"))
    } throws: { error in
      if case ForumPageError.banned = error { return true }
      return false
    }
  }

  /// Other forum pages (the profile has a `table.standard` too) are not read as an empty colony.
  @Test(arguments: ["profile.html", "showthread.html", "private-list.html", "forumdisplay.html"])
  func otherPagesAreNotTheColony(name: String) throws {
    #expect(throws: ScrapeError.self) {
      try LepersColonyScraper().scrape(data: CapturedPages.data(name))
    }
  }
}
