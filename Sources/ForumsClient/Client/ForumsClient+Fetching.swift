import AwfulScraping
import ForumModel
import Foundation

extension ForumsClient {
  /// Sends `request` and returns the checked HTML page. Throws `SessionExpired` when the session is gone, so that
  /// `withSession` can log in again.
  func fetchDocument(_ request: ForumRequest, page: String) async throws -> (HTMLDocument, ForumResponse) {
    let response = try await transport.send(request)
    let document = try PageReader.document(from: response, page: page)
    try await checkSessionCookie()
    return (document, response)
  }

  /// Sends `request` and returns its checked JSON body.
  func fetchJSON(_ request: ForumRequest, page: String) async throws -> Data {
    let response = try await transport.send(request)
    let data = try PageReader.json(from: response, page: page)
    try await checkSessionCookie()
    return data
  }

  /// Sends a form whose answer only matters for its errors.
  func submit(_ request: ForumRequest) async throws {
    let response = try await transport.send(request)
    try PageReader.acknowledgement(from: response)
    try await checkSessionCookie()
  }

  /// The forum logs a client out by deleting `bbuserid`; the forum's own client checks it after every request.
  func checkSessionCookie() async throws {
    if !(await hasSession()) { throw SessionExpired() }
  }

  /// Runs a scraper, mapping what it throws to the client's errors.
  func scrape<T>(_ page: String, _ scraper: () throws -> T) throws -> T {
    do {
      return try scraper()
    } catch let error as ForumPageError {
      if case .loggedOut = error { throw SessionExpired() }
      throw ForumsClientError(error)
    } catch let error as ScrapeError {
      throw ForumsClientError.pageNotUnderstood(error)
    } catch let error as ForumsClientError {
      throw error
    } catch {
      throw ForumsClientError.pageNotUnderstood(ScrapeError(page: page, reason: "\(error)"))
    }
  }
}
