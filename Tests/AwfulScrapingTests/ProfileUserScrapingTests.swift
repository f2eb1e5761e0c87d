import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// Who a profile page is about (how a name becomes the id of a rap sheet): EXPECTED.md's ProfileScrapingTests values
/// for `profile`, a name and an id on every captured profile, and the pages that are not a profile.
@Suite(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct ProfileUserScrapingTests {
  @Test func pokeyman() throws {
    let user = try ProfileUserScraper().scrape(data: CapturedPages.data("profile.html"))
    #expect(user == ForumUserReference(name: "pokeyman", id: "106125"))
  }

  @Test(arguments: ["profile2.html", "profile3.html", "profile4.html", "profile5.html", "profile6.html"])
  func everyProfileNamesItsUser(name: String) throws {
    let user = try ProfileUserScraper().scrape(data: CapturedPages.data(name))
    #expect(!user.name.isEmpty)
    #expect(user.id.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } == true)
  }

  @Test func errorPagesAreTheirError() {
    #expect(throws: ForumPageError.self) {
      try ProfileUserScraper().scrape(data: CapturedPages.data("error-must-register.html"))
    }
    #expect(throws: ForumPageError.self) {
      try ProfileUserScraper().scrape(data: CapturedPages.data("database-unavailable.html"))
    }
  }

  @Test func aPageWithoutAUserIsAScrapeError() {
    #expect(throws: ScrapeError.self) { try ProfileUserScraper().scrape(data: CapturedPages.data("banlist.html")) }
    #expect(throws: ScrapeError.self) {
      try ProfileUserScraper().scrape(
        data: Data(
          "<html><body><table class=\"standard\"><dl class=\"userinfo\"><dt class=\"author\">x</dt></dl><input name=\"userid\" value=\"99999999999999999999999\"></table></body></html>"
            .utf8))
    }
  }
}
