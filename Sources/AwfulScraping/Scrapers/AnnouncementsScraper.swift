import ForumModel
import Foundation

/// Scrapes `announcement.php?forumid=1` (docs/forum-protocol.md#announcements): the rows of `table.post` taken in pairs
/// (body row, date row). Announcements have no ids or titles on this page; pass the rows of a thread list as `listed`
/// to take titles from them by order, as the forum's own client matches them. With `requireAgreement` (what the bot's
/// client uses) a title is taken only when the list and the page agree (as many rows as announcements, the same author
/// at each position): the two come from separate requests, and an announcement posted between them must not get its
/// neighbour's title. An odd row count throws `ScrapeError`.
package struct AnnouncementsScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(
    data: Data, url: URL? = nil, charset: String? = nil, listed: [ThreadListAnnouncement] = [],
    requireAgreement: Bool = false
  ) throws -> [Announcement] {
    try scrape(
      HTMLDocument(data: data, url: url, contentTypeCharset: charset), listed: listed,
      requireAgreement: requireAgreement)
  }

  package func scrape(
    _ document: HTMLDocument, listed: [ThreadListAnnouncement] = [], requireAgreement: Bool = false
  ) throws -> [Announcement] {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "announcements", reason: "the page has no body") }
    guard let table = body.firstDescendant("table", class: "post") else {
      throw ScrapeError(page: "announcements", reason: "no table.post")
    }
    // Rows are children of the table, or of its tbody when the markup has one.
    var rows: [HTMLNode] = []
    for child in table.elementChildren {
      if child.isElement("tr") {
        rows.append(child)
      } else if child.isElement("tbody") {
        rows.append(contentsOf: child.elementChildren.filter { $0.isElement("tr") })
      }
    }
    guard rows.count % 2 == 0 else {
      throw ScrapeError(page: "announcements", reason: "\(rows.count) rows; expected pairs of body and date rows")
    }
    let titlesMatch = !requireAgreement || listed.count == rows.count / 2
    let converter = PostBodyConverter(baseURL: document.url)
    let sidebar = AuthorSidebarScraper(dates: dates)
    var announcements: [Announcement] = []
    for pair in stride(from: 0, to: rows.count, by: 2) {
      let bodyRow = rows[pair]
      let dateRow = rows[pair + 1]
      guard let author = sidebar.author(AuthorSidebarScraper.Parts(in: bodyRow)) else {
        throw ScrapeError(page: "announcements", reason: "announcement \(pair / 2 + 1) has no dt.author")
      }
      let postBody = bodyRow.firstDescendant("td", class: "postbody")
      let content = postBody.map(PostContent.init) ?? PostContent(nodes: [], editNote: nil)
      let dateText = dateRow.firstDescendant("td", class: "postdate")?.textContent ?? ""
      let index = pair / 2
      announcements.append(
        Announcement(
          title: titlesMatch && index < listed.count && (!requireAgreement || Self.sameAuthor(listed[index], author))
            ? listed[index].title : nil,
          author: author,
          date: dates.date(from: dateText),
          dateHasTime: dateText.contains(":"),
          bodyHTML: HTMLNode.serialize(content.nodes).trimmed,
          body: converter.convert(content.nodes)))
    }
    return announcements
  }

  /// A listed row and a scraped announcement are by the same user (by id when both have one, else by name).
  private static func sameAuthor(_ row: ThreadListAnnouncement, _ author: PostAuthor) -> Bool {
    if let rowID = row.authorID, let id = author.id { return rowID == id }
    guard let name = row.authorName else { return true }
    return name.caseInsensitiveCompare(author.name) == .orderedSame
  }
}
