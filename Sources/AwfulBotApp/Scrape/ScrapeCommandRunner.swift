import AwfulScraping
import ForumModel
import Foundation

/// `awfulbot scrape`: runs one scraper over a saved page and prints what it read as JSON (schema in docs/scrape.md), so
/// a change in the forum's markup can be diagnosed from a saved copy. The executable only parses arguments and prints
/// the result; everything else happens here, where tests can reach it.
///
/// Exit status 0 with the scraped page; 2 with `{"kind": "error", "error": …}` when the page is one of the forum's
/// error pages; 1 with a message when the file cannot be read, the page is not the kind asked for, or no known kind
/// (`auto`).
package struct ScrapeCommandRunner: Sendable {
  package init() {}

  package func run(_ options: ScrapeOptions) -> ScrapeCommandResult {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: options.path))
    } catch {
      return failure("cannot read \(options.path): \(Self.reason(error))")
    }
    return run(data: data, options: options)
  }

  /// Scrapes bytes already in memory (`options.path` is only used in messages).
  package func run(data: Data, options: ScrapeOptions) -> ScrapeCommandResult {
    guard !data.isEmpty else { return failure("\(options.path) is empty") }
    do {
      let kind = try resolvedKind(options.kind, data: data, url: options.url, path: options.path)
      let json = try scrape(kind, data: data, options: options)
      return ScrapeCommandResult(output: json, exitCode: ScrapeCommandResult.success)
    } catch let error as ForumPageError {
      return forumError(error)
    } catch let error as ScrapeError {
      return failure("\(options.path): \(error.description)")
    } catch let error as UnrecognisedPage {
      return failure(error.message)
    } catch {
      return failure("\(options.path): \(Self.reason(error))")
    }
  }

  /// The kind to scrape as: the one asked for, or the detected one for `auto`.
  private func resolvedKind(_ kind: ScrapeKind, data: Data, url: URL?, path: String) throws -> ScrapeKind {
    guard kind == .auto else { return kind }
    guard let detected = PageKind.detect(data: data, url: url) else {
      throw UnrecognisedPage(
        message: "\(path): not a forum page awfulbot knows (no thread list, posts, announcements, showpost, "
          + "reply form, private messages, Leper's Colony, error page or index JSON); pass --kind to force a scraper")
    }
    switch detected {
    case .threadList: return .threads
    case .posts: return .posts
    case .announcements: return .announcements
    case .showPost: return .post
    case .forumIndex: return .index
    case .error: return .error
    case .replyForm: return .replyForm
    case .privateMessageFolder: return .privateMessages
    case .privateMessage: return .privateMessage
    case .lepersColony: return .banlist
    }
  }

  private func scrape(_ kind: ScrapeKind, data: Data, options: ScrapeOptions) throws -> String {
    let zone = options.timeZone
    switch kind {
    case .auto:
      preconditionFailure("auto is resolved before scraping")
    case .index:
      return try encode(kind, ForumIndexScraper().scrape(data: data, url: options.url), options)
    case .threads:
      return try encode(kind, ThreadListScraper(timeZone: zone).scrape(document(data, options)), options)
    case .posts:
      return try encode(kind, PostsPageScraper(timeZone: zone).scrape(document(data, options)), options)
    case .post:
      return try encode(kind, ShowPostScraper(timeZone: zone).scrape(document(data, options)), options)
    case .announcements:
      // The scraper returns a bare list; it goes under one key so `kind` can sit beside it.
      let announcements = try AnnouncementsScraper(timeZone: zone).scrape(document(data, options))
      return try encode(kind, ["announcements": announcements], options)
    case .replyForm:
      return try encode(kind, ReplyFormScraper().scrape(document(data, options)), options)
    case .privateMessages:
      return try encode(kind, PrivateMessageFolderScraper(timeZone: zone).scrape(document(data, options)), options)
    case .privateMessage:
      return try encode(kind, PrivateMessageScraper(timeZone: zone).scrape(document(data, options)), options)
    case .banlist:
      return try encode(kind, LepersColonyScraper(timeZone: zone).scrape(document(data, options)), options)
    case .error:
      if let error = ErrorPageScraper().scrape(try document(data, options)) { throw error }
      throw UnrecognisedPage(message: "\(options.path): not a forum error page")
    }
  }

  private func encode(_ kind: ScrapeKind, _ value: some Encodable, _ options: ScrapeOptions) throws -> String {
    try ScrapeJSON.encode(ScrapeDocument(kind: kind, value: value), bodyFormat: options.bodyFormat)
  }

  private func document(_ data: Data, _ options: ScrapeOptions) throws -> HTMLDocument {
    try HTMLDocument(data: data, url: options.url)
  }

  private func forumError(_ error: ForumPageError) -> ScrapeCommandResult {
    do {
      return ScrapeCommandResult(
        output: try ScrapeJSON.encode(ScrapeDocument(kind: .error, value: ForumErrorReport(error)), bodyFormat: .text),
        exitCode: ScrapeCommandResult.forumError)
    } catch {
      return failure("cannot encode the forum error: \(Self.reason(error))")
    }
  }

  private func failure(_ message: String) -> ScrapeCommandResult {
    ScrapeCommandResult(output: "", errorMessage: message, exitCode: ScrapeCommandResult.failure)
  }

  private static func reason(_ error: any Error) -> String {
    (error as? CocoaError)?.localizedDescription ?? String(describing: error)
  }

  /// The page is not what was asked for, or nothing `auto` recognises.
  private struct UnrecognisedPage: Error {
    var message: String
  }
}
