import Foundation

/// Scrapes a member's profile, `member.php?action=getinfo` (docs/forum-protocol.md §b.6). Throws `ForumPageError`
/// for an error page and `ScrapeError` for a page without a profile.
package struct ProfileScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> Profile {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> Profile {
    try ErrorPageScraper().check(document)
    let cls = ExtraScraping.cls
    guard let info = document.first("//td[\(cls("info"))]") else {
      throw ScrapeError(page: "profile", reason: "no td.info")
    }
    guard let body = document.body, let author = AuthorSidebarScraper(dates: dates).author(.init(in: body)) else {
      throw ScrapeError(page: "profile", reason: "no dt.author")
    }
    var profile = Profile(author: author)

    let paragraphs = info.nodes("./p")
    if let first = paragraphs.first {
      profile.gender = gender(in: ExtraScraping.collapsed(first.textContent))
    }
    if paragraphs.count > 1 {
      let about = paragraphs[1].innerHTML.trimmingCharacters(in: .whitespacesAndNewlines)
      profile.aboutHTML = about.isEmpty ? nil : about
    }

    profile.canReceivePrivateMessages =
      info.first(".//dl[\(cls("contacts"))]/dt[\(cls("pm"))]/following-sibling::*[1][self::dd]//a") != nil
    profile.icqName = contact("icq", in: info)
    profile.aimName = contact("aim", in: info)
    profile.yahooName = contact("yahoo", in: info)
    profile.homepage = info.first(
      ".//dl[\(cls("contacts"))]/dt[\(cls("homepage"))]/following-sibling::*[1][self::dd]//a[@href]"
    )?.attribute("href")
    profile.pictureURL = document.first("//div[\(cls("userpic"))]//img[@src]")?.attribute("src")

    let additional = additionalInfo(in: info)
    if let count = additional["post count"]?.first {
      profile.postCount = Int(count.filter(\.isNumber))
    }
    if let rate = additional["post rate"]?.first {
      let number = rate.prefix(while: { $0.isNumber || $0 == "." })
      profile.postRate = number.isEmpty ? nil : String(number)
    }
    if let lastPost = additional["last post"]?.first, !lastPost.isEmpty {
      profile.lastPostDateRaw = lastPost
      profile.lastPostDate = dates.date(from: lastPost)
    }
    profile.location = additional["location"]?.text
    profile.interests = additional["interests"]?.text
    profile.occupation = additional["occupation"]?.text
    return profile
  }

  /// "… pokeyman claims to be a porpoise." → "porpoise".
  private func gender(in text: String) -> String? {
    guard let range = text.range(of: "claims to be a ") else { return nil }
    let letters = text[range.upperBound...].prefix(while: \.isLetter)
    return letters.isEmpty ? nil : String(letters)
  }

  /// `dt.<name> + dd`, nil when it holds `span.unset` ("not set") or nothing.
  private func contact(_ name: String, in info: HTMLNode) -> String? {
    let cls = ExtraScraping.cls
    guard let dd = info.first(".//dl[\(cls("contacts"))]/dt[\(cls(name))]/following-sibling::*[1][self::dd]"),
      dd.first(".//span[\(cls("unset"))]") == nil
    else { return nil }
    let text = ExtraScraping.collapsed(dd.textContent)
    return text.isEmpty ? nil : text
  }

  /// One `dl.additional` value: the whole text, and its first text node (the dd of "Last Post" is never closed, so
  /// a parser may nest the following entries inside it).
  struct AdditionalValue {
    var text: String
    var first: String?
  }

  /// The `dl.additional` entries keyed by lower-cased `dt` text. Every `dt` at any depth is read with the `dd` that
  /// follows it, so the table reads the same whether the unclosed `dd` swallowed its successors or not.
  private func additionalInfo(in info: HTMLNode) -> [String: AdditionalValue] {
    var out: [String: AdditionalValue] = [:]
    for dt in info.nodes(".//dl[\(ExtraScraping.cls("additional"))]//dt") {
      let key = ExtraScraping.collapsed(dt.textContent).lowercased()
      guard !key.isEmpty, out[key] == nil, let dd = dt.first("./following-sibling::*[1][self::dd]") else { continue }
      let firstText = dd.children.first(where: \.isText).map { ExtraScraping.collapsed($0.textContent) }
      out[key] = AdditionalValue(text: ExtraScraping.collapsed(dd.textContent), first: firstText)
    }
    return out
  }
}
