import ForumModel
import Foundation

/// Scrapes the Leper's Colony (`banlist.php`) and a user's rap sheet (`banlist.php?userid=U`), which share their
/// markup (docs/forum-protocol.md#b9-other-scrapers): the rows of the `table.standard` whose header row names the
/// columns (Type, Date, Horrible Jerk, Punishment Reason, Requested By, Approved By), six `td` each, and the page
/// list (`div.pages`) above the table.
///
/// Throws `ForumPageError` for an error page and `ScrapeError` for a page without that table, so a page that is not
/// the Leper's Colony is never read as an empty one. A row that cannot be read (too few cells, an unknown type, no
/// date, no user) is left out and reported in `Result.skipped`, for the caller to log; the rest of the page is
/// still read.
package struct LepersColonyScraper: Sendable {
  package var dates: ForumDates

  /// A row left out, and why.
  package struct SkippedRow: Sendable, Hashable, CustomStringConvertible {
    /// 1-based among the table's rows of cells (the header row not counted).
    package var row: Int
    package var reason: String

    package var description: String { "row \(row): \(reason)" }
  }

  /// A page read, with the rows left out.
  package struct Result: Sendable, Hashable {
    package var page: LepersColonyPage
    package var skipped: [SkippedRow]
  }

  package init(timeZone: TimeZone = ForumDates.forumTimeZone) {
    dates = ForumDates(timeZone: timeZone)
  }

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> LepersColonyPage {
    try read(HTMLDocument(data: data, url: url, contentTypeCharset: charset)).page
  }

  package func scrape(_ document: HTMLDocument) throws -> LepersColonyPage { try read(document).page }

  /// The page with the rows it had to leave out.
  package func read(_ document: HTMLDocument) throws -> Result {
    try ErrorPageScraper().check(document)
    guard let body = document.body else { throw ScrapeError(page: "Leper's Colony", reason: "the page has no body") }
    guard let table = body.descendants("table", class: "standard").first(where: Self.hasColonyHeader) else {
      throw ScrapeError(
        page: "Leper's Colony",
        reason: "no table.standard with the Leper's Colony's header row (Type, Date, Horrible Jerk, …)")
    }

    let converter = PostBodyConverter(baseURL: document.url)
    var punishments: [Punishment] = []
    var skipped: [SkippedRow] = []
    var number = 0
    for row in Self.rows(of: table) {
      let cells = row.elementChildren.filter { $0.isElement("td") }
      guard !cells.isEmpty else { continue }
      number += 1
      switch punishment(cells, converter: converter) {
      case .success(let punishment): punishments.append(punishment)
      case .failure(let problem): skipped.append(SkippedRow(row: number, reason: problem.reason))
      }
    }
    let pages = body.firstDescendant("div", class: "pages")
    return Result(
      page: LepersColonyPage(
        punishments: punishments, navigation: pages.map { PageChrome.pageNavigation($0) }),
      skipped: skipped)
  }

  /// Why a row was left out.
  private struct RowProblem: Error {
    var reason: String
  }

  /// One row's six cells: type (linking the post), date, user, reason, requester, approver.
  private func punishment(_ cells: [HTMLNode], converter: PostBodyConverter) -> Swift.Result<Punishment, RowProblem> {
    guard cells.count >= 5 else {
      return .failure(
        RowProblem(reason: "\(cells.count) cells; a punishment has 6 (type, date, user, reason, mod, admin)"))
    }
    let typeText = cells[0].normalizedText
    guard let sentence = Self.sentence(typeText) else {
      return .failure(RowProblem(reason: "unknown type \"\(Self.excerpt(typeText))\""))
    }
    let postID = cells[0].firstDescendant(where: { $0.isElement("a") && $0.hasAttribute("href") })
      .flatMap { $0.attribute("href") }
      .flatMap { LinkParsing.queryValue("postid", in: $0) }
      .flatMap(Self.forumID)
    let dateText = cells[1].normalizedText
    guard let date = dates.date(from: dateText) else {
      return .failure(RowProblem(reason: "no date in \"\(Self.excerpt(dateText))\""))
    }
    guard let subject = Self.user(in: cells[2]) else { return .failure(RowProblem(reason: "no punished user")) }
    guard let requester = Self.user(in: cells[4]) else { return .failure(RowProblem(reason: "no requesting mod")) }
    let reasonNodes = cells[3].children
    let reasonText = cells[3].normalizedText
    return .success(
      Punishment(
        sentence: sentence,
        probationLength: sentence == .probation ? Self.probationLength(in: reasonText) : nil,
        date: date,
        postID: postID,
        subject: subject,
        reasonHTML: HTMLNode.serializeTrimmed(reasonNodes),
        reason: converter.convert(reasonNodes),
        requester: requester,
        approver: cells.count > 5 ? Self.user(in: cells[5]) : nil))
  }

  /// The table's rows, whether or not the markup has a `tbody`.
  private static func rows(of table: HTMLNode) -> [HTMLNode] {
    var rows: [HTMLNode] = []
    for child in table.elementChildren {
      if child.isElement("tr") {
        rows.append(child)
      } else if child.isElement("tbody") || child.isElement("thead") {
        rows.append(contentsOf: child.elementChildren.filter { $0.isElement("tr") })
      }
    }
    return rows
  }

  /// A header row naming the type and the punished user: what tells the Leper's Colony's table from the other
  /// `table.standard` tables of the forum (the profile's, a private message folder's).
  private static func hasColonyHeader(_ table: HTMLNode) -> Bool {
    rows(of: table).contains { row in
      let headers = row.elementChildren.filter { $0.isElement("th") }.map { $0.normalizedText.lowercased() }
      return headers.contains("type") && headers.contains { $0.contains("jerk") || $0.contains("reason") }
    }
  }

  /// The type column, by its exact text (the forum upper-cases it).
  private static func sentence(_ text: String) -> Punishment.Sentence? {
    switch text.uppercased() {
    case "PROBATION": .probation
    case "BAN": .ban
    case "AUTOBAN": .autoban
    case "PERMABAN": .permaban
    default: nil
    }
  }

  /// A user cell: the profile link's text and `userid`, else the cell's text with no id; nil when empty.
  private static func user(in cell: HTMLNode) -> ForumUserReference? {
    let link = cell.firstDescendant(where: { $0.isElement("a") && $0.attribute("href", contains: "userid") })
    let name = (link ?? cell).normalizedText
    guard !name.isEmpty else { return nil }
    let id = link?.attribute("href").flatMap { LinkParsing.queryValue("userid", in: $0) }.flatMap(forumID)
    return ForumUserReference(name: name, id: id)
  }

  /// A post or user id as the forum prints it: 1 to 18 decimal digits (any real id, and never a number that a
  /// reader's `Int` cannot hold); anything else is no id.
  private static func forumID(_ raw: String) -> String? {
    let value = raw.trimmed
    guard (1...18).contains(value.utf8.count), value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    return value
  }

  /// "6 hours" from "… User loses posting privileges for 6 hours." (the sentence the forum appends to a
  /// probation's reason); nil when the reason has no such sentence or it runs on past any real length.
  static func probationLength(in reason: String) -> String? {
    let marker = "posting privileges for "
    guard let start = reason.range(of: marker, options: [.caseInsensitive, .backwards]) else { return nil }
    let tail = reason[start.upperBound...]
    let length = (tail.firstIndex(of: ".").map { tail[..<$0] } ?? tail).trimmingCharacters(in: .whitespaces)
    guard !length.isEmpty, length.count <= 40 else { return nil }
    return length
  }

  /// At most 40 characters of a cell's text, for a skipped row's reason.
  private static func excerpt(_ text: String) -> String {
    text.count <= 40 ? text : String(text.prefix(40)) + "…"
  }
}
