import AwfulScraping
import ForumModel
import Foundation

/// Turns a forum response into something a scraper can read, or into the typed error it really is.
enum PageReader {
  /// The parsed HTML page, after checking, in this order: the forum's error pages (logged out, banned, database,
  /// closed thread, probation), the HTTP status, and that the page arrived whole.
  /// Throws `SessionExpired` for the logged-out page.
  static func document(from response: ForumResponse, page: String) throws -> HTMLDocument {
    let document: HTMLDocument
    do {
      document = try HTMLDocument(bytes: response.body, url: response.url, contentTypeCharset: response.charset)
    } catch let error as ScrapeError {
      guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
      throw ForumsClientError.pageNotUnderstood(ScrapeError(page: page, reason: error.reason))
    }
    try checkErrorPage(ErrorPageScraper().scrape(document))
    guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
    guard isComplete(response.body) else {
      throw ForumsClientError.pageNotUnderstood(
        ScrapeError(page: page, reason: "the page is cut short (no closing </html>); the connection may have dropped"))
    }
    return document
  }

  /// Checks a response that should be JSON: an HTML page instead is read for the error it shows.
  static func json(from response: ForumResponse, page: String) throws -> Data {
    if response.isSuccess && response.looksLikeJSON { return response.data }
    if let error = errorPage(in: response) { try checkErrorPage(error) }
    guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
    throw ForumsClientError.pageNotUnderstood(ScrapeError(page: page, reason: "expected JSON, got another page"))
  }

  /// Checks the answer to a form post whose content does not matter (bookmark changes, mark read).
  static func acknowledgement(from response: ForumResponse) throws {
    if response.isRedirect { return }
    if let error = errorPage(in: response) { try checkErrorPage(error) }
    guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
  }

  /// The forum error page the response is, if it is one.
  static func errorPage(in response: ForumResponse) -> ForumPageError? {
    guard !response.looksLikeJSON, !response.body.isEmpty else { return nil }
    return try? ErrorPageScraper().scrape(data: response.data, url: response.url, charset: response.charset)
  }

  static func checkErrorPage(_ error: ForumPageError?) throws {
    guard let error else { return }
    if case .loggedOut = error { throw SessionExpired() }
    throw ForumsClientError(error)
  }

  /// The forum's pages always end with `</html>`; a page without it was cut off in transit, and reading it would
  /// silently drop whatever was missing (posts, threads).
  static func isComplete(_ body: [UInt8]) -> Bool {
    let tail = String(decoding: body.suffix(512), as: UTF8.self).lowercased()
    return tail.contains("</html>")
  }
}
