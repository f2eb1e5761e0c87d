import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// The page list's `<select>` is left out of the parse only where the list's own attributes give the position.
struct PageListTrimTests {
  static let modern =
    "<html><body><div class=\"pages top\" data-current-page=\"17\" data-total-pages=\"21\" data-base-url=\"x\">"
    + "<a href=\"x&amp;pagenumber=16\" title=\"Previous page\">&lsaquo;</a><select data-url=\"x\">"
    + "<option value=\"1\">1</option><option value=\"17\" selected=\"selected\">17</option>"
    + "<option value=\"21\">21</option></select><a href=\"x&amp;pagenumber=18\">&rsaquo;</a></div>"
    + "<p>after</p><div class=\"pages bottom\" data-current-page=\"17\" data-total-pages=\"21\">"
    + "<select data-url=\"x\"><option value=\"1\">1</option></select></div></body></html>"

  static func trimmed(_ html: String) -> String {
    let bytes = Array(html.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      String(decoding: PageListTrim.removing(PageListTrim.ranges(in: buffer), from: buffer), as: UTF8.self)
    }
  }

  @Test func theSelectOfAModernPageListIsLeftOut() throws {
    #expect(
      Self.trimmed(Self.modern)
        == "<html><body><div class=\"pages top\" data-current-page=\"17\" data-total-pages=\"21\" data-base-url=\"x\">"
        + "<a href=\"x&amp;pagenumber=16\" title=\"Previous page\">&lsaquo;</a>"
        + "<a href=\"x&amp;pagenumber=18\">&rsaquo;</a></div>"
        + "<p>after</p><div class=\"pages bottom\" data-current-page=\"17\" data-total-pages=\"21\"></div></body></html>"
    )
    let document = try HTMLDocument(string: Self.modern)
    #expect(document.nodes("//select").isEmpty)
    #expect(document.nodes("//a").count == 2)
    let pages = try #require(document.body?.firstDescendant("div", class: "pages"))
    #expect(PageChrome.pageNavigation(pages) == PageNavigation(current: 17, total: 21))
  }

  @Test(arguments: [
    // The older markup: the select is the page count.
    "<div class=\"pages\"><select data-url=\"x\"><option value=\"1\" selected>1</option></select></div>",
    // Attributes that are not plain numbers: the select stays as the fallback.
    "<div class=\"pages\" data-current-page=\"\" data-total-pages=\"21\"><select data-url=\"x\"></select></div>",
    "<div class=\"pages\" data-current-page=\"2\" data-total-pages=\"2,1\"><select data-url=\"x\"></select></div>",
    // Not a page list, or a select of another kind.
    "<div class=\"other\" data-current-page=\"2\" data-total-pages=\"3\"><select data-url=\"x\"></select></div>",
    "<div class=\"pages\" data-current-page=\"2\" data-total-pages=\"3\"><select name=\"folderid\"></select></div>",
    // A select after the list's end, or one that does not close inside it.
    "<div class=\"pages\" data-current-page=\"2\" data-total-pages=\"3\"></div><select data-url=\"x\"></select>",
    "<div class=\"pages\" data-current-page=\"2\" data-total-pages=\"3\"><select data-url=\"x\"></div></select>",
    // Cut short.
    "<div class=\"pages\" data-current-page=\"2\" data-total-pages=\"3",
    "data-total-pages=\"3\"",
  ])
  func anythingElseParsesAsSent(html: String) {
    #expect(Self.trimmed(html) == html)
  }
}
