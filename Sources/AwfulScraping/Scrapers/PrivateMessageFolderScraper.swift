import ForumModel
import Foundation

/// Scrapes a private message folder listing, `private.php?folderid=N` (docs/forum-protocol.md#private-messages).
package struct PrivateMessageFolderScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> PrivateMessageFolder {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> PrivateMessageFolder {
    try ErrorPageScraper().check(document)
    let cls = HTMLDocument.hasClass
    guard let table = document.first("//table[\(cls("standard"))]") else {
      throw ScrapeError(page: "private message folder", reason: "no table.standard")
    }
    // The first folder menu is "Jump to folder"; a later one (the move target) lists only some folders.
    let options = document.nodes("(//select[@name = 'folderid'])[1]//option[@value]")
    let folders = options.map {
      PrivateMessageFolder.Entry(id: $0.attribute("value") ?? "", name: $0.normalizedText)
    }
    let current = options.first(where: { $0.attribute("selected") != nil }).map {
      PrivateMessageFolder.Entry(id: $0.attribute("value") ?? "", name: $0.normalizedText)
    }
    var messages: [PrivateMessageFolder.Message] = []
    for row in table.nodes(".//tr[td[\(cls("title"))]//a[@href]]") {
      guard let link = row.first("./td[\(cls("title"))]//a[@href]"),
        let href = link.attribute("href"), let id = LinkParsing.queryValue("privatemessageid", in: href)
      else { continue }
      let iconImage = row.first("./td[\(cls("icon"))]//img[@src]")
      let icon = iconImage?.attribute("src").map {
        ThreadTag(id: LinkParsing.fragment(of: $0), imageURL: $0, imageName: LinkParsing.imageName(from: $0))
      }
      let rawDate = row.first("./td[\(cls("date"))]").map(\.normalizedText)
      messages.append(
        PrivateMessageFolder.Message(
          id: id,
          subject: link.normalizedText,
          sender: row.first("./td[\(cls("sender"))]//a").flatMap(Self.sender(link:)),
          sentDate: rawDate.flatMap(dates.date(from:)),
          sentDateRaw: rawDate,
          icon: icon,
          iconAlt: iconImage?.attribute("alt").flatMap { $0.isEmpty ? nil : $0 },
          status: PrivateMessageStatus(iconURL: row.first("./td[\(cls("status"))]//img")?.attribute("src"))
        ))
    }
    return PrivateMessageFolder(
      folders: folders,
      current: current,
      isOnlyShowingLastFiftyMessages: document.first("//div[\(cls("pmwarn"))]//a[contains(@href, 'showall')]") != nil,
      messages: messages,
      probation: ProbationScraper(dates: dates).scrape(banner: document.first("//div[@id = 'probation_warn']"))
    )
  }

  /// The sender's profile link: its text and `userid`. The folder list links every sender to
  /// `member.php?action=getinfo&userid=0`, so an id of 0 tells nothing and is dropped.
  private static func sender(link: HTMLNode) -> ForumUserReference? {
    let name = link.normalizedText
    guard !name.isEmpty else { return nil }
    let id = link.attribute("href").flatMap { LinkParsing.queryValue("userid", in: $0) }
    return ForumUserReference(name: name, id: id == "0" ? nil : id)
  }
}
