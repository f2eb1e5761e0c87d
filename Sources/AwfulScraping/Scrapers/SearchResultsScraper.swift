import ForumModel
import Foundation

/// Scrapes a page of the forum's search results, `query.php?action=results&qid=Q&page=N` (and the answer to the
/// search's POST when it is that page). The selectors are the forum's own client's (Awful.app's search screen):
/// `#search_info`, each `.search_result` with `.threadtitle` (a link naming `postid`), `.result_number`, `.blurb`,
/// `.forumtitle`, `.username` and `.hit_info` (the date), and `.pages` (the current page in `b`, the others linked
/// with `qid` and `page`). No captured results page exists: the markup is known from those selectors only.
///
/// The forum's error pages come out typed: "only accessible to Platinum members" and the limit on searches as
/// `SearchRefusal` with the forum's sentence, every other one (logged out, database down, banned) as the
/// `ForumPageError` it is.
package struct SearchResultsScraper: Sendable {
  package var dates: ForumDates

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> SearchResultsPage {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> SearchResultsPage {
    if let error = ErrorPageScraper().scrape(document) {
      if case .standard(_, let message) = error, let refusal = SearchRefusal(errorMessage: message) { throw refusal }
      throw error
    }
    let cls = HTMLDocument.hasClass
    let infoNode = document.first("//*[@id = 'search_info']")
    let resultNodes = document.nodes("//*[\(cls("search_result"))]")
    guard infoNode != nil || !resultNodes.isEmpty else {
      throw ScrapeError(page: "search results", reason: "no #search_info and no .search_result")
    }
    let results = resultNodes.compactMap(result)
    if results.isEmpty, !resultNodes.isEmpty {
      throw ScrapeError(page: "search results", reason: "no .search_result links a post (.threadtitle with postid)")
    }
    let pages = document.first("//*[\(cls("pages"))]")
    let pageLinks = pages?.nodes(".//a[@href]").compactMap { $0.attribute("href") } ?? []
    let queryID =
      document.url.flatMap { LinkParsing.queryValue("qid", in: $0.absoluteString) }
      ?? pageLinks.lazy.compactMap { LinkParsing.queryValue("qid", in: $0) }.first
    return SearchResultsPage(
      queryID: queryID.flatMap { Self.isQueryID($0) ? $0 : nil },
      info: infoNode.map(Self.lines) ?? "",
      results: results,
      navigation: pages.flatMap { navigation($0, links: pageLinks) },
      totalResults: infoNode.flatMap(Self.total))
  }

  private func result(_ node: HTMLNode) -> SearchResult? {
    let cls = HTMLDocument.hasClass
    guard let title = node.first(".//a[\(cls("threadtitle"))][@href]"), let href = title.attribute("href"),
      let postID = LinkParsing.queryValue("postid", in: href).flatMap(Self.digits)
    else { return nil }
    let user = node.first(".//*[\(cls("username"))]")
    let forum = node.first(".//*[\(cls("forumtitle"))]")
    let hitInfo = node.first(".//*[\(cls("hit_info"))]")
    let dateText = hitInfo.flatMap(Self.dateText)
    let blurb = node.first(".//*[\(cls("blurb"))]")
    return SearchResult(
      number: node.first(".//*[\(cls("result_number"))]").flatMap { Self.number(in: $0.normalizedText) },
      postID: postID,
      threadID: LinkParsing.queryValue("threadid", in: href).flatMap(Self.digits),
      threadTitle: title.normalizedText,
      forumID: forum.flatMap(Self.link).flatMap { LinkParsing.queryValue("forumid", in: $0) }.flatMap(Self.digits),
      forumTitle: forum?.normalizedText ?? "",
      author: user.flatMap { user in
        let name = user.normalizedText
        guard !name.isEmpty else { return nil }
        let id = Self.link(user).flatMap { LinkParsing.queryValue("userid", in: $0) }.flatMap(Self.digits)
        return ForumUserReference(name: name, id: id)
      },
      date: dateText.flatMap(dates.date(from:)),
      dateText: dateText,
      snippetHTML: blurb?.innerHTML.trimmingCharacters(in: .whitespacesAndNewlines) ?? "",
      snippet: blurb.map { PostBodyConverter(baseURL: node.document.url).convert($0.children) } ?? [])
  }

  /// The current page from `.pages b`, the last from the highest `page=` linked (at least the current one).
  private func navigation(_ pages: HTMLNode, links: [String]) -> PageNavigation? {
    let linked = links.compactMap { LinkParsing.queryValue("page", in: $0).flatMap { Int($0.prefix(10)) } }
    let current = pages.first(".//b").flatMap { Self.number(in: $0.normalizedText) }
    guard let current = current ?? (linked.isEmpty ? nil : 1) else { return nil }
    let page = Clamp.forumNumber(current, atLeast: 1)
    let last = Clamp.forumNumber(linked.max() ?? page, atLeast: 1)
    return PageNavigation(current: page, total: max(page, last))
  }

  /// The href of the node, or of the link it sits in or holds.
  private static func link(_ node: HTMLNode) -> String? {
    if node.isElement("a") { return node.attribute("href") }
    return node.first(".//a[@href]")?.attribute("href") ?? node.ancestor { $0.isElement("a") }?.attribute("href")
  }

  /// `.hit_info` reads "by Name in Forum at Mar  2, 2025 10:00": the words after its last " at ".
  private static func dateText(_ hitInfo: HTMLNode) -> String? {
    let text = hitInfo.normalizedText
    guard let range = text.range(of: " at ", options: .backwards) else { return text.isEmpty ? nil : text }
    let date = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
    return date.isEmpty ? nil : date
  }

  /// `#search_info` one line per block, as a person reads it.
  private static func lines(_ info: HTMLNode) -> String {
    let blocks = info.elementChildren.map(\.normalizedText).filter { !$0.isEmpty }
    return blocks.isEmpty ? info.normalizedText : blocks.joined(separator: "\n")
  }

  /// "57 results" (or "1 result") at the start of one of `#search_info`'s lines: the lines the searched words are
  /// on start with their label, so a number in the words is never read as the count.
  private static func total(_ info: HTMLNode) -> Int? {
    for line in lines(info).split(separator: "\n") {
      let number = line.prefix { $0.isASCII && ($0.isNumber || $0 == ",") }
      let digits = number.filter { $0 != "," }
      guard !digits.isEmpty, line.dropFirst(number.count).hasPrefix(" result") else { continue }
      return Int(digits.prefix(10)).map { Clamp.forumNumber($0) }
    }
    return nil
  }

  /// The first whole number in the text ("21." is 21), clamped.
  private static func number(in text: String) -> Int? {
    let digits = text.drop { !($0.isASCII && $0.isNumber) }.prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty ? nil : Int(digits.prefix(10)).map { Clamp.forumNumber($0) }
  }

  /// An id is digits only; anything else from the page is not an id.
  private static func digits(_ value: String) -> String? {
    !value.isEmpty && value.count <= 20 && value.allSatisfy({ $0.isASCII && $0.isNumber }) ? value : nil
  }

  /// A query id the bot will send back: short, letters and digits only (it goes into a URL and a log).
  private static func isQueryID(_ value: String) -> Bool {
    !value.isEmpty && value.count <= 64 && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
  }
}
