import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// What a hostile or broken Leper's Colony page gets out of the scraper: a reason with markup and pings, numbers no
/// integer holds, rows with cells missing. Never a crash; a row that cannot be read is left out and said why, and
/// the rest of the page is read.
@Suite struct LepersColonyHostileTests {
  static let header =
    "<tr><th>Type</th><th nowrap>Date</th><th>Horrible Jerk</th><th>Punishment Reason</th><th nowrap>Requested By</th><th nowrap>Approved By</th></tr>"

  static func row(
    type: String = "PROBATION", postID: String = "421665753", date: String = "11/10/13 10:10am",
    userID: String = "202925", name: String = "Kheldragar",
    reason: String = "Stop.  User loses posting privileges for 6 hours.",
    modID: String = "61644"
  ) -> String {
    "<tr><td align=\"left\"><b><a href=\"/showthread.php?goto=post&amp;postid=\(postID)\" target=\"new\">\(type)</a></b></td>"
      + "<td nowrap>\(date)</td><td nowrap><b><a href=\"/member.php?s=&amp;action=getinfo&amp;userid=\(userID)\">\(name)</a></b></td>"
      + "<td>\(reason)</td><td nowrap><a href=\"/member.php?s=&amp;action=getinfo&amp;userid=\(modID)\">Ralp</a></td>"
      + "<td nowrap><a href=\"/member.php?s=&amp;action=getinfo&amp;userid=\(modID)\">Ralp</a></td></tr>"
  }

  static func page(_ rows: [String], pages: String = "") -> Data {
    Data(
      """
      <html><head><title>Leper's Colony</title></head><body id="something_awful" class="banlist"><div id="content">
      <div class="standard" id="main_full"><h2>Leper's Colony</h2><div class="inner">
      <div class="mqnav">\(pages)</div>
      <table class="standard full">\(header)\(rows.joined())</table>
      </div></div></div></body></html>
      """.utf8)
  }

  func read(_ data: Data) throws -> LepersColonyScraper.Result {
    try LepersColonyScraper().read(
      HTMLDocument(data: data, url: URL(string: "https://forums.somethingawful.com/banlist.php")))
  }

  @Test func reasonWithScriptAndPingsIsTextOnly() throws {
    let reason =
      "<script>alert('pwned')</script><b>@room</b> read <a href=\"javascript:alert(1)\">this</a>"
      + "<img src=\"x\" onerror=\"alert(2)\"> &lt;tag&gt;  User loses posting privileges for 1 day."
    let result = try read(Self.page([Self.row(reason: reason)]))
    let punishment = try #require(result.page.punishments.first)
    let text = plainText(punishment.reason)
    // The script's text is not part of the reason; the ping is plain text for the renderers to defuse.
    #expect(!text.contains("alert('pwned')"))
    #expect(text.contains("@room"))
    #expect(text.contains("<tag>"))
    #expect(!String(describing: punishment.reason).contains("javascript:"))
    // The HTML is kept as the forum wrote it, for whoever wants it; the rich text is what chat is built from.
    #expect(punishment.reasonHTML.contains("<script>"))
    #expect(punishment.probationLength == "1 day")
  }

  @Test func hugeNumbersAreNoIDsAndClampedPages() throws {
    let huge = "99999999999999999999999999999999"
    let pages =
      "<div class=\"pages\"><select><option value=\"\(huge)\" selected=\"selected\">\(huge)</option>"
      + "<option value=\"-5\">-5</option></select></div>"
    let result = try read(Self.page([Self.row(postID: huge, userID: huge, modID: "-1")], pages: pages))
    let punishment = try #require(result.page.punishments.first)
    #expect(punishment.postID == nil)
    #expect(punishment.subject == ForumUserReference(name: "Kheldragar", id: nil))
    #expect(punishment.requester.id == nil)
    let navigation = try #require(result.page.navigation)
    #expect(navigation.current <= Clamp.forumNumber && navigation.total <= Clamp.forumNumber)
    #expect(navigation.current >= 1)
  }

  @Test func rowsThatCannotBeReadAreSkippedWithTheirReason() throws {
    let rows = [
      "<tr><td>PROBATION</td><td>11/10/13 10:10am</td></tr>",
      Self.row(type: "WARNING"),
      Self.row(date: "yesterday-ish"),
      Self.row(name: ""),
      Self.row(),
      "<tr></tr>",
    ]
    let result = try read(Self.page(rows))
    #expect(result.page.punishments.count == 1)
    #expect(result.page.punishments.first?.subject.name == "Kheldragar")
    #expect(result.skipped.map(\.row) == [1, 2, 3, 4])
    #expect(result.skipped[0].reason.contains("2 cells"))
    #expect(result.skipped[1].reason.contains("unknown type \"WARNING\""))
    #expect(result.skipped[2].reason.contains("no date"))
    #expect(result.skipped[3].reason.contains("no punished user"))
  }

  @Test func aLongTypeIsCutInTheSkipReason() throws {
    let result = try read(Self.page([Self.row(type: String(repeating: "A", count: 5_000))]))
    #expect(result.page.punishments.isEmpty)
    #expect(try #require(result.skipped.first).reason.count < 100)
  }

  @Test func emptyColonyIsEmptyNotAnError() throws {
    let result = try read(Self.page([]))
    #expect(result.page.punishments.isEmpty)
    #expect(result.skipped.isEmpty)
    #expect(result.page.navigation == nil)
  }

  @Test func pageWithoutTheTableIsAScrapeError() throws {
    let data = Data(
      "<html><body class=\"banlist\"><table class=\"standard\"><tr><td>x</td></tr></table></body></html>".utf8)
    #expect(throws: ScrapeError.self) { try read(data) }
  }

  @Test func probationLengthReading() {
    #expect(LepersColonyScraper.probationLength(in: "Stop.  User loses posting privileges for 6 hours.") == "6 hours")
    #expect(LepersColonyScraper.probationLength(in: "No sentence here.") == nil)
    #expect(LepersColonyScraper.probationLength(in: "User loses posting privileges for ") == nil)
    let endless = "User loses posting privileges for " + String(repeating: "very ", count: 100) + "long."
    #expect(LepersColonyScraper.probationLength(in: endless) == nil)
  }
}
