import AwfulBotTestKit
import ForumModel
import Foundation
import Testing

@testable import AwfulScraping

/// EXPECTED.md, "Error tests": banned, database unavailable, standard errors and the closed-thread redirect, with every
/// "must throw" case (a normal page is not an error page of any kind).
@Suite(.enabled(if: CapturedPages.available, CapturedPages.skipReason))
struct ConformanceErrorPageTests {
  func error(_ name: String) throws -> ForumPageError? {
    try ErrorPageScraper().scrape(data: CapturedPages.data(name), url: CapturedPages.url(name))
  }

  @Test func banned() throws {
    guard case .banned(let help, let reason)? = try error("banned.html") else {
      Issue.record("banned.html should be a ban page")
      return
    }
    let helpURL = try #require(help.flatMap { URL(string: $0) })
    let reasonURL = try #require(reason.flatMap { URL(string: $0) })
    #expect(helpURL.path.hasPrefix("/showthread.php"))
    #expect(helpURL.query == "threadid=3809308")
    #expect(reasonURL.path.hasPrefix("/banlist.php"))
    #expect(reasonURL.query == "userid=xxxxxx&actfilt=-1")
  }

  @Test func databaseUnavailable() throws {
    guard case .databaseUnavailable(let title, let message)? = try error("database-unavailable.html") else {
      Issue.record("database-unavailable.html should be a database error")
      return
    }
    #expect(title == "Database Unavailable!")
    #expect(message.contains("currently not available"))
  }

  @Test func mustRegisterIsLoggedOut() throws {
    guard case .loggedOut(let message)? = try error("error-must-register.html") else {
      Issue.record("error-must-register.html should read as logged out")
      return
    }
    #expect(message.hasPrefix("Sorry, you must be a registered forums member to view this page."))
  }

  @Test func mustRegisterStandardErrorTitle() throws {
    // The logged-out page is a standard error page: its title is the standard one.
    let document = try HTMLDocument(data: CapturedPages.data("error-must-register.html"))
    #expect(document.body?.firstDescendant("h2")?.normalizedText == "Special Message From Senor Lowtax")
  }

  @Test(arguments: [
    ("error-requires-archives.html", "archives upgrade"),
    ("error-requires-plat.html", "only accessible to Platinum members"),
  ])
  func standardErrors(name: String, phrase: String) throws {
    guard case .standard(let title, let message)? = try error(name) else {
      Issue.record("\(name) should be a standard error")
      return
    }
    #expect(title == "Special Message From Senor Lowtax")
    #expect(message.contains(phrase))
    #expect(!message.contains("\n"))
  }

  @Test func closedThread() throws {
    guard case .threadClosed(let title, let message)? = try error("newreply-closed.html") else {
      Issue.record("newreply-closed.html should be the closed-thread redirect")
      return
    }
    #expect(title == "Sorry!")
    #expect(message == "! This thread is closed!")
  }

  /// Normal pages are no error; the "must throw" cases of EXPECTED.md (a page of another kind is not a ban, database
  /// error or standard error).
  @Test(arguments: [
    "forumdisplay.html", "profile.html", "banlist.html", "showthread.html", "bookmarkthreads.html", "showpost.html",
    "announcement.html", "newreply.html", "ignore-success.html",
  ])
  func normalPagesAreNotErrors(name: String) throws {
    #expect(try error(name) == nil)
  }

  @Test func errorPagesAreNotEachOther() throws {
    if case .standard? = try error("database-unavailable.html") { Issue.record("database page read as standard") }
    if case .databaseUnavailable? = try error("error-must-register.html") { Issue.record("standard read as database") }
    if case .banned? = try error("database-unavailable.html") { Issue.record("database page read as banned") }
  }

  /// Every scraper checks for an error page first and throws it, typed.
  @Test func scrapersThrowTheErrorPage() throws {
    let data = try CapturedPages.data("error-must-register.html")
    let message = try #require(try loggedOutMessage())
    #expect(throws: ForumPageError.loggedOut(message: message)) {
      try ThreadListScraper().scrape(data: data, expecting: .bookmarks)
    }
    #expect(throws: ForumPageError.self) { try PostsPageScraper().scrape(data: data) }
    #expect(throws: ForumPageError.self) { try ShowPostScraper().scrape(data: data) }
    #expect(throws: ForumPageError.self) { try AnnouncementsScraper().scrape(data: data) }
    #expect(throws: ForumPageError.self) { try ReplyFormScraper().scrape(data: data) }
    #expect(throws: ForumPageError.self) { try ReplyResultScraper().scrape(data: data) }
    #expect(throws: ForumPageError.self) { try ForumIndexScraper().scrape(data: data) }
    let banned = try CapturedPages.data("banned.html")
    #expect(throws: ForumPageError.self) { try PostsPageScraper().scrape(data: banned) }
    let database = try CapturedPages.data("database-unavailable.html")
    #expect(throws: ForumPageError.self) { try ThreadListScraper().scrape(data: database) }
    let closed = try CapturedPages.data("newreply-closed.html")
    #expect(throws: ForumPageError.self) { try ReplyResultScraper().scrape(data: closed) }
  }

  func loggedOutMessage() throws -> String? {
    if case .loggedOut(let message)? = try error("error-must-register.html") { return message }
    return nil
  }
}
