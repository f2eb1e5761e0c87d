import AwfulScraping
import Foundation
import Testing

@Suite("Leper's Colony scraping")
struct LepersColonyPageScrapingTests {
  @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
  func banlist() throws {
    let page = try LepersColonyScraper().scrape(ExtraFixture.document("banlist.html"))
    #expect(page.punishments.count == 50)
    let first = try #require(page.punishments.first)
    #expect(first.sentence == .probation)
    #expect(first.postID == "421665753")
    #expect(first.date == ExtraFixture.date(1_384_099_800))
    #expect(first.dateRaw == "11/10/13 10:10am")
    #expect(first.subject == ForumUserReference(name: "Kheldragar", id: "202925"))
    #expect(first.reasonHTML.contains("shitty as you"))
    #expect(first.requester == ForumUserReference(name: "Ralp", id: "61644"))
    #expect(first.approver == first.requester)

    let counts = Dictionary(grouping: page.punishments, by: \.sentence).mapValues(\.count)
    #expect(counts[.probation] == 41)
    #expect(counts[.autoban] == 6)
    #expect(counts[.ban] == 3)
    #expect(counts[.permaban] == nil)
    // Rows without a post link (e.g. the fifth) have no post id but are kept.
    #expect(page.punishments[4].postID == nil)
    #expect(page.punishments[4].subject.name == "Call Me Cismale")
    #expect(page.punishments.allSatisfy { $0.date != nil })
  }

  @Test func ownRows() throws {
    let html = """
      <html><body><table class="standard"><tr><th>Type</th></tr>
      <tr><td><b>PERMABAN</b></td><td>01/02/14 11:59pm</td><td><a href="/member.php?action=getinfo&amp;userid=9">Gone</a></td>
      <td>Bye <b>forever</b>.</td><td><a href="/member.php?action=getinfo&amp;userid=1">Mod</a></td><td></td></tr>
      </table></body></html>
      """
    let page = try LepersColonyScraper().scrape(HTMLDocument(string: html))
    let only = try #require(page.punishments.first)
    #expect(page.punishments.count == 1)
    #expect(only.sentence == .permaban)
    #expect(only.reasonHTML == "Bye <b>forever</b>.")
    #expect(only.approver == nil)
    // 11:59 PM CST on Jan 2, 2014 is 05:59 UTC on Jan 3.
    #expect(only.date == ExtraFixture.date(1_388_728_740))
  }
}
