import Foundation

/// Scrapes `banlist.php` (docs/forum-protocol.md §b.9): rows of `table.standard` with six cells (type, date, user,
/// reason, requester, approver). Rows of another shape (the header) are skipped.
package struct LepersColonyScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> LepersColonyPage {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> LepersColonyPage {
    try ErrorPageScraper().check(document)
    guard let table = document.first("//table[\(ExtraScraping.cls("standard"))]") else {
      throw ScrapeError(page: "Leper's Colony", reason: "no table.standard")
    }
    var punishments: [LepersColonyPage.Punishment] = []
    for row in table.nodes(".//tr[td]") {
      let cells = row.nodes("./td")
      guard cells.count >= 6, let sentence = sentence(ExtraScraping.collapsed(cells[0].textContent)),
        let subject = cells[2].first(".//a[@href]").flatMap(ForumUserReference.init(link:))
      else { continue }
      let dateRaw = ExtraScraping.collapsed(cells[1].textContent)
      punishments.append(
        LepersColonyPage.Punishment(
          sentence: sentence,
          postID: ExtraScraping.queryValue("postid", in: cells[0].first(".//a[@href]")?.attribute("href")),
          date: dates.date(from: dateRaw),
          dateRaw: dateRaw,
          subject: subject,
          reasonHTML: cells[3].innerHTML.trimmingCharacters(in: .whitespacesAndNewlines),
          requester: cells[4].first(".//a").flatMap(ForumUserReference.init(link:)),
          approver: cells[5].first(".//a").flatMap(ForumUserReference.init(link:))
        ))
    }
    return LepersColonyPage(punishments: punishments)
  }

  /// The type column's text. "AUTOBAN" and "PERMABAN" contain "BAN", so they are tested first.
  private func sentence(_ text: String) -> LepersColonyPage.Sentence? {
    let upper = text.uppercased()
    if upper.contains("PROBATION") { return .probation }
    if upper.contains("AUTOBAN") { return .autoban }
    if upper.contains("PERMABAN") { return .permaban }
    if upper.contains("BAN") { return .ban }
    return nil
  }
}
