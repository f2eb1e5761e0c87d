import ForumModel
import Foundation

/// Recognises the pages the forum serves instead of the one asked for (docs/forum-protocol.md#error-pages): the
/// standard error (`body.standarderror`, with the logged-out "must be a registered forums member" page as `.loggedOut`
/// and a refusal that names the account's probation as `.probation`), the database-unavailable page, the ban page and
/// the closed-thread redirect. A refusal by the flood check (posting again too soon) is `.floodCheck`, with the seconds
/// its sentence names. Returns nil for a normal page. Every other scraper runs this first and throws what it
/// finds.
///
/// The probation banner (`div#probation_warn`) on a normal page is not an error: the page is read as usual and the
/// scrapers report the banner as a `Probation` value (`ProbationScraper`).
package struct ErrorPageScraper: Sendable {
  package init() {}

  /// The error the page shows, or nil for a normal page.
  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> ForumPageError? {
    scrape(try HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  /// The error the page shows, or nil for a normal page.
  package func scrape(_ document: HTMLDocument) -> ForumPageError? {
    guard let body = document.body else { return nil }
    if body.hasClassToken("standarderror") { return standardError(body) }
    if body.hasClassToken("database_error") { return databaseUnavailable(body) }
    if body.hasClassToken("banned") { return banned(body) }
    if body.hasClassToken("standardredirect"), let closed = closedThread(body) { return closed }
    return nil
  }

  /// Throws the page's error, if it is one.
  package func check(_ document: HTMLDocument) throws {
    if let error = scrape(document) { throw error }
  }

  private func standardError(_ body: HTMLNode) -> ForumPageError {
    let standard = body.firstDescendant("div", class: "standard")
    let title = standard?.firstDescendant("h2")?.normalizedText ?? ""
    let inner = standard?.firstDescendant("div", class: "inner")
    let message = inner.map(leadingMessage) ?? standard?.normalizedText ?? body.normalizedText
    if message.contains("must be a registered forums member") { return .loggedOut(message: message) }
    // Posting while on probation is refused with an error page that says so (the banner alone is not a refusal: a
    // "thread not found" page shown to an account on probation is still "not found").
    if message.range(of: "probation", options: .caseInsensitive) != nil { return .probation(message: message) }
    if let flood = floodCheck(message) { return flood }
    return .standard(title: title, message: message)
  }

  /// vBulletin's flood check: "This forum requires that you wait 30 seconds between posts. Please try again in 12
  /// seconds." Without a number to wait for, the page stays a plain refusal (its sentence is kept either way).
  private func floodCheck(_ message: String) -> ForumPageError? {
    let lowered = message.lowercased()
    guard lowered.contains("between posts") || lowered.contains("flood") else { return nil }
    let interval = Self.number(after: "wait", in: lowered)
    guard let retryAfter = Self.number(after: "try again in", in: lowered) ?? interval else { return nil }
    return .floodCheck(message: message, interval: interval, retryAfter: max(1, retryAfter))
  }

  /// The whole number right after the first `phrase` (spaces between), if one follows it.
  private static func number(after phrase: String, in text: String) -> Int? {
    guard let range = text.range(of: phrase) else { return nil }
    let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
    return Int(digits)
  }

  /// The text of `div.inner` up to the first line break or block: the sentence that says what went wrong, without
  /// the long explanations some error pages carry below it (some of them hidden).
  private func leadingMessage(_ inner: HTMLNode) -> String {
    var text = ""
    var node = inner.firstChild
    while let current = node {
      if current.isElement("br") || current.isElement("div") || current.isElement("p") {
        if !text.collapsingWhitespace.isEmpty { break }
      } else if current.isText || current.isElement {
        text += current.textContent + " "
      }
      node = current.nextSibling
    }
    let message = text.collapsingWhitespace
    return message.isEmpty ? inner.normalizedText : message
  }

  private func databaseUnavailable(_ body: HTMLNode) -> ForumPageError {
    let message = body.firstDescendant { $0.isElement("div") && $0.attribute("id", equals: "msg") }
    let heading = (message ?? body).firstDescendant("h1")
    var text = ""
    var next = heading?.nextSibling
    while let node = next, !node.isElement("br"), !node.isElement("div") {
      text += node.textContent
      next = node.nextSibling
    }
    return .databaseUnavailable(
      title: heading?.normalizedText ?? "Database Unavailable", message: text.collapsingWhitespace)
  }

  private func banned(_ body: HTMLNode) -> ForumPageError {
    func link(containing fragment: String) -> String? {
      body.firstDescendant { $0.isElement("a") && $0.attribute("href", contains: fragment) }
        .flatMap { $0.attribute("href") }
        .map { LinkParsing.absolute($0, base: nil) }
    }
    return .banned(helpURL: link(containing: "showthread.php"), reasonURL: link(containing: "banlist.php"))
  }

  /// "Sorry! This thread is closed!": the title is the text up to the first "!", the message from there to the
  /// last "!", as the forum's own client reads it.
  private func closedThread(_ body: HTMLNode) -> ForumPageError? {
    guard let standard = body.firstDescendant("div", class: "standard"),
      let inner = standard.firstDescendant("div", class: "inner")
    else { return nil }
    let text = inner.normalizedText
    guard text.contains("This thread is closed!"), let first = text.firstIndex(of: "!"),
      let last = text.lastIndex(of: "!")
    else { return nil }
    return .threadClosed(title: String(text[...first]), message: String(text[first...last]))
  }
}

extension HTMLDocument {
  /// The `<body>` element.
  package var body: HTMLNode? {
    guard let root else { return nil }
    if root.isElement("body") { return root }
    var child = root.firstChild
    while let node = child {
      if node.isElement("body") { return node }
      child = node.nextSibling
    }
    return root.firstDescendant("body")
  }
}
