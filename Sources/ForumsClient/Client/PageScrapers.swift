import AwfulScraping
import ForumModel
import Foundation

/// The one place that knows the scrapers' entry points, so the client's calls read as "fetch X, scrape X".
enum PageScrapers {
  static func bookmarks(_ document: HTMLDocument, timeZone: TimeZone) throws -> ThreadListPage {
    try ThreadListScraper(timeZone: timeZone).scrape(document, expecting: .bookmarks)
  }

  static func forumThreads(_ document: HTMLDocument, timeZone: TimeZone) throws -> ThreadListPage {
    try ThreadListScraper(timeZone: timeZone).scrape(document, expecting: .forum)
  }

  static func posts(_ document: HTMLDocument, timeZone: TimeZone) throws -> PostsPage {
    try PostsPageScraper(timeZone: timeZone).scrape(document)
  }

  static func announcements(
    _ document: HTMLDocument, listed: [ThreadListAnnouncement], timeZone: TimeZone
  ) throws -> [Announcement] {
    try AnnouncementsScraper(timeZone: timeZone).scrape(document, listed: listed, requireAgreement: true)
  }

  static func replyForm(_ document: HTMLDocument) throws -> ReplyForm {
    try ReplyFormScraper().scrape(document)
  }

  static func replyResult(_ document: HTMLDocument) throws -> ReplyResult {
    try ReplyResultScraper().scrape(document)
  }

  static func privateMessageFolder(_ document: HTMLDocument, timeZone: TimeZone) throws -> PrivateMessageFolder {
    try PrivateMessageFolderScraper(timeZone: timeZone).scrape(document)
  }

  static func privateMessage(_ document: HTMLDocument, timeZone: TimeZone) throws -> PrivateMessage {
    try PrivateMessageScraper(timeZone: timeZone).scrape(document)
  }

  static func privateMessageSent(_ document: HTMLDocument) throws {
    try PrivateMessageSendResultScraper().scrape(document)
  }

  static func probation(_ document: HTMLDocument, timeZone: TimeZone) -> Probation? {
    ProbationScraper(timeZone: timeZone).scrape(document)
  }

  static func searchResults(_ document: HTMLDocument, timeZone: TimeZone) throws -> SearchResultsPage {
    try SearchResultsScraper(timeZone: timeZone).scrape(document)
  }

  static func lepersColony(_ document: HTMLDocument, timeZone: TimeZone) throws -> LepersColonyScraper.Result {
    try LepersColonyScraper(timeZone: timeZone).read(document)
  }

  static func profileUser(_ document: HTMLDocument) throws -> ForumUserReference {
    try ProfileUserScraper().scrape(document)
  }

  static func forumIndex(json: Data) throws -> ForumIndex {
    try ForumIndexScraper().scrape(data: json)
  }
}
