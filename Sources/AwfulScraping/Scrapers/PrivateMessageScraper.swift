import ForumModel
import Foundation

/// Scrapes one private message, `private.php?action=show&privatemessageid=M` (docs/forum-protocol.md#private-messages).
package struct PrivateMessageScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> PrivateMessage {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> PrivateMessage {
    try ErrorPageScraper().check(document)
    let cls = HTMLDocument.hasClass
    // The reply/forward buttons carry the message id; the page has no other reliable place for it.
    let id = document.nodes("//div[\(cls("buttons"))]//a[@href]").lazy
      .compactMap { $0.attribute("href").flatMap { LinkParsing.queryValue("privatemessageid", in: $0) } }
      .first { !$0.isEmpty }
    guard let id else {
      throw ScrapeError(page: "private message", reason: "no privatemessageid in div.buttons")
    }
    guard let postbody = document.first("//td[\(cls("postbody"))]") else {
      throw ScrapeError(page: "private message", reason: "no td.postbody")
    }
    let postdate = document.first("//td[\(cls("postdate"))]")
    let rawDate = postdate?.children.last.map(\.normalizedText).flatMap {
      $0.isEmpty ? nil : $0
    }
    return PrivateMessage(
      id: id,
      subject: subject(document),
      author: document.body.flatMap { AuthorSidebarScraper(dates: dates).author(.init(in: $0)) },
      sentDate: rawDate.flatMap(dates.date(from:)),
      sentDateRaw: rawDate,
      status: PrivateMessageStatus(iconURL: postdate?.first(".//img[@src]")?.attribute("src")),
      bodyHTML: postbody.innerHTML.trimmingCharacters(in: .whitespacesAndNewlines),
      body: PostBodyConverter(baseURL: document.url).convert(postbody.children),
      probation: ProbationScraper(dates: dates).scrape(banner: document.first("//div[@id = 'probation_warn']"))
    )
  }

  /// The last " > " part of the breadcrumbs ("… > Private Messages > Awful app" → "Awful app").
  private func subject(_ document: HTMLDocument) -> String? {
    guard let crumbs = document.first("//div[\(HTMLDocument.hasClass("breadcrumbs"))]//b") else { return nil }
    let text = crumbs.normalizedText
    guard let last = text.components(separatedBy: " > ").last, !last.isEmpty else { return nil }
    return last
  }
}
