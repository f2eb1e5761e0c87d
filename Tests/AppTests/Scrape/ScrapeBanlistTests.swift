import AwfulBotApp
import AwfulBotTestKit
import Foundation
import Testing

/// `awfulbot scrape` on the captured Leper's Colony: recognised by `auto` as `banlist`, printed with the documented
/// keys (docs/scrape.md) and EXPECTED.md's values.
@Suite("awfulbot scrape on the Leper's Colony", .enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct ScrapeBanlistTests {
  @Test(arguments: [ScrapeKind.auto, .banlist])
  func banlist(kind: ScrapeKind) throws {
    let result = ScrapeCommandRunner().run(ScrapeOptions(path: CapturedPages.path("banlist.html"), kind: kind))
    #expect(result.exitCode == 0, "\(result.errorMessage)")
    let page = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.errorMessage)")
    #expect(page["kind"] as? String == "banlist")
    #expect(Set(page.keys) == ["kind", "punishments", "navigation"])
    let punishments = try #require(page["punishments"] as? [[String: Any]])
    #expect(punishments.count == 50)
    let first = try #require(punishments.first)
    #expect(first["sentence"] as? String == "probation")
    #expect(first["postID"] as? String == "421665753")
    #expect(first["date"] as? String == "2013-11-10T16:10:00Z")
    #expect(first["probationLength"] as? String == "6 hours")
    #expect((first["subject"] as? [String: String]) == ["name": "Kheldragar", "id": "202925"])
    #expect((first["reason"] as? String)?.contains("shitty as you") == true)
    #expect((page["navigation"] as? [String: Int]) == ["current": 1, "total": 2369])
  }

  @Test func anErrorPageForcedAsBanlistIsTheError() {
    let result = ScrapeCommandRunner().run(
      ScrapeOptions(path: CapturedPages.path("error-must-register.html"), kind: .banlist))
    #expect(result.exitCode == 2)
  }

  @Test func anotherPageForcedAsBanlistSaysWhy() {
    let result = ScrapeCommandRunner().run(ScrapeOptions(path: CapturedPages.path("profile.html"), kind: .banlist))
    #expect(result.exitCode == 1)
    #expect(result.errorMessage.contains("Leper's Colony"))
  }
}
