import Foundation

/// Scrapes the post icon choices of `newthread.php?action=newthread` or `private.php?action=newmessage`
/// (docs/forum-protocol.md §b.9).
package struct PostIconListScraper: Sendable {
  package init() {}

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> PostIconList {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> PostIconList {
    try ErrorPageScraper().check(document)
    let iconDivs = document.nodes("//div[\(ExtraScraping.cls("posticon"))]")
    guard !iconDivs.isEmpty else { throw ScrapeError(page: "post icons", reason: "no div.posticon") }
    var primary: [ThreadTag] = []
    for div in iconDivs {
      guard let value = div.first(".//input[@value]")?.attribute("value"),
        let src = div.first(".//img[@src]")?.attribute("src")
      else { continue }
      primary.append(tag(id: value, src: src))
    }
    let primaryName = iconDivs.first?.first(".//input[@name]")?.attribute("name")

    // Secondary icons are radios outside the iconid group, each followed directly by its image. If any radio has
    // no image the markup is not what we know, and no secondary icons are reported rather than mismatched ones.
    let radios = document.nodes("//input[translate(@type, 'RADIO', 'radio') = 'radio' and not(@name = 'iconid')]")
    var secondary: [ThreadTag] = []
    for radio in radios {
      guard let src = radio.first("./following-sibling::*[1][self::img]")?.attribute("src") else {
        secondary = []
        break
      }
      secondary.append(tag(id: radio.attribute("value") ?? "", src: src))
    }
    return PostIconList(
      primaryIcons: primary,
      primaryFieldName: primaryName,
      secondaryIcons: secondary,
      secondaryFieldName: secondary.isEmpty ? nil : radios.first?.attribute("name")
    )
  }

  private func tag(id: String, src: String) -> ThreadTag { ExtraScraping.tag(id: id, src: src) }
}
