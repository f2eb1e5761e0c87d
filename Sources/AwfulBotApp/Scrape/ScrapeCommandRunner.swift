import AwfulScraping
import Foundation

/// `awfulbot scrape`: runs one scraper over a saved page and prints what it read as JSON (schema in docs/scrape.md),
/// so a change in the forum's markup can be diagnosed from a saved copy. The executable only parses arguments and
/// prints the result; everything else happens here, where tests can reach it.
///
/// Exit status 0 with the scraped page; 2 with `{"error": …}` when the page is one of the forum's error pages; 1 with
/// a message when the file cannot be read, the page is not the kind asked for, or no known kind (`auto`).
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
          + "reply form, private messages, error page or index JSON); pass --kind to force a scraper")
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
    }
  }

  private func scrape(_ kind: ScrapeKind, data: Data, options: ScrapeOptions) throws -> String {
    let format = options.bodyFormat
    let zone = options.timeZone
    switch kind {
    case .auto:
      preconditionFailure("auto is resolved before scraping")
    case .index:
      return try ScrapeJSON.encode(ForumIndexOutput(ForumIndexScraper().scrape(data: data, url: options.url)))
    case .threads:
      let page = try ThreadListScraper(timeZone: zone).scrape(document(data, options))
      return try ScrapeJSON.encode(ThreadListOutput(page))
    case .posts:
      let page = try PostsPageScraper(timeZone: zone).scrape(document(data, options))
      return try ScrapeJSON.encode(PostsPageOutput(page, format: format))
    case .post:
      let page = try ShowPostScraper(timeZone: zone).scrape(document(data, options))
      return try ScrapeJSON.encode(ShowPostOutput(page, format: format))
    case .announcements:
      let announcements = try AnnouncementsScraper(timeZone: zone).scrape(document(data, options))
      return try ScrapeJSON.encode(AnnouncementsOutput(announcements, format: format))
    case .replyForm:
      return try ScrapeJSON.encode(ReplyFormOutput(ReplyFormScraper().scrape(document(data, options))))
    case .privateMessages:
      let folder = try PrivateMessageFolderScraper(timeZone: zone).scrape(document(data, options))
      return try ScrapeJSON.encode(PrivateMessageFolderOutput(folder))
    case .privateMessage:
      let message = try PrivateMessageScraper(timeZone: zone).scrape(document(data, options))
      return try ScrapeJSON.encode(PrivateMessageOutput(message, format: format))
    case .error:
      if let error = ErrorPageScraper().scrape(try document(data, options)) { throw error }
      throw UnrecognisedPage(message: "\(options.path): not a forum error page")
    }
  }

  private func document(_ data: Data, _ options: ScrapeOptions) throws -> HTMLDocument {
    try HTMLDocument(data: data, url: options.url)
  }

  private func forumError(_ error: ForumPageError) -> ScrapeCommandResult {
    do {
      return ScrapeCommandResult(
        output: try ScrapeJSON.encode(ForumErrorOutput(error)), exitCode: ScrapeCommandResult.forumError)
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
