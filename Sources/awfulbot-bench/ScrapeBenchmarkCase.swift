import AwfulScraping
import ForumModel
import Foundation

/// A captured page and the scraper that reads it, as the bot reads it in production (error check included).
struct ScrapeBenchmarkCase: Sendable {
  enum Group: String, Sendable {
    case threadList = "thread list"
    case bookmarks
    case posts = "posts page"
    case announcement
    case showPost = "showpost"
    case index = "index JSON"
    case errorPage = "error page"

    /// Thread pages are the bot's hot path: these are compared against libxml2's bare parse.
    var isThreadPage: Bool { self == .threadList || self == .bookmarks || self == .posts }
  }

  let file: String
  let group: Group
  let url: String
  /// Resolved once: building a `URL` is the caller's work, not the scraper's, and the bookmarks page parses in under
  /// a millisecond, so resolving it on every timed run weighed on the ratio.
  let pageURL: URL

  init(file: String, group: Group, url: String) {
    self.file = file
    self.group = group
    self.url = url
    self.pageURL = Self.resolve(url)
  }

  /// Every captured page kind the bot reads, by file name in the fixtures folder.
  static let all: [ScrapeBenchmarkCase] = [
    .init(file: "bookmarkthreads.html", group: .bookmarks, url: "bookmarkthreads.php?action=view&perpage=40"),
    .init(file: "forumdisplay.html", group: .threadList, url: "forumdisplay.php?forumid=46&perpage=40"),
    .init(file: "forumdisplay2.html", group: .threadList, url: "forumdisplay.php?forumid=191&perpage=40"),
    .init(file: "forumdisplay-sad.html", group: .threadList, url: "forumdisplay.php?forumid=1&perpage=40"),
    .init(file: "forumdisplay3.html", group: .threadList, url: "forumdisplay.php?forumid=46&perpage=40&pagenumber=2"),
    .init(file: "forumdisplay-goldmine.html", group: .threadList, url: "forumdisplay.php?forumid=21&perpage=40"),
    // Named like a thread, captured from a forum's thread list (Ask / Tell).
    .init(file: "showthread-asktell.html", group: .threadList, url: "forumdisplay.php?forumid=158&perpage=40"),
    .init(file: "showthread.html", group: .posts, url: "showthread.php?threadid=3507451&perpage=40&pagenumber=5"),
    .init(file: "showthread2.html", group: .posts, url: "showthread.php?threadid=3526065&perpage=40&pagenumber=17"),
    .init(file: "showthread-fyad.html", group: .posts, url: "showthread.php?threadid=3589200&pagenumber=2"),
    .init(file: "showthread-fyad2.html", group: .posts, url: "showthread.php?threadid=3599117&perpage=40"),
    .init(file: "showthread-last.html", group: .posts, url: "showthread.php?threadid=3179230&perpage=40&goto=lastpost"),
    .init(file: "announcement.html", group: .announcement, url: "announcement.php?forumid=1"),
    .init(file: "showpost.html", group: .showPost, url: "showthread.php?action=showpost&postid=428957756"),
    .init(file: "index.json", group: .index, url: "index.php?json=1"),
    .init(file: "database-unavailable.html", group: .errorPage, url: "showthread.php?threadid=1"),
    .init(file: "error-must-register.html", group: .errorPage, url: "bookmarkthreads.php"),
    .init(file: "banned.html", group: .errorPage, url: "bookmarkthreads.php"),
  ]

  /// The listed pages, then any other captured page the bot would poll (a thread list or thread page by
  /// `PageKind`), so a page added to the fixtures is measured without editing this list.
  static func every(in folder: URL) -> [ScrapeBenchmarkCase] {
    let listed = Set(all.map(\.file))
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    let others = files.filter { $0.hasSuffix(".html") && !listed.contains($0) }.sorted().compactMap {
      file -> ScrapeBenchmarkCase? in
      guard let data = try? Data(contentsOf: folder.appendingPathComponent(file)) else { return nil }
      switch PageKind.detect(data: data) {
      case .threadList: return .init(file: file, group: .threadList, url: "forumdisplay.php")
      case .posts: return .init(file: file, group: .posts, url: "showthread.php")
      default: return nil
      }
    }
    return all + others
  }

  private static func resolve(_ url: String) -> URL {
    URL(string: url, relativeTo: URL(string: "https://forums.somethingawful.com/")!)!.absoluteURL
  }

  /// Scrapes an already parsed page (for the breakdown of where the time goes); nil for the JSON index.
  func scrape(document: HTMLDocument) throws -> Int? {
    switch group {
    case .threadList, .bookmarks:
      let page = try ThreadListScraper().scrape(document)
      return page.threads.count + page.announcements.count
    case .posts:
      return try PostsPageScraper().scrape(document).posts.count
    case .announcement:
      return try AnnouncementsScraper().scrape(document).count
    case .showPost:
      return try ShowPostScraper().scrape(document).post.body.count
    case .index:
      return nil
    case .errorPage:
      return ErrorPageScraper().scrape(document) == nil ? 0 : 1
    }
  }

  /// Parses and scrapes the page once; returns a number derived from the result so the work cannot be dropped.
  func scrape(_ data: Data) throws -> Int {
    switch group {
    case .threadList, .bookmarks:
      let page = try ThreadListScraper().scrape(data: data, url: pageURL)
      return page.threads.count + page.announcements.count
    case .posts:
      return try PostsPageScraper().scrape(data: data, url: pageURL).posts.count
    case .announcement:
      return try AnnouncementsScraper().scrape(data: data, url: pageURL).count
    case .showPost:
      return try ShowPostScraper().scrape(data: data, url: pageURL).post.body.count
    case .index:
      return try ForumIndexScraper().scrape(data: data, url: pageURL).groups.count
    case .errorPage:
      return try ErrorPageScraper().scrape(data: data, url: pageURL) == nil ? 0 : 1
    }
  }
}
