import AwfulScraping

/// `kind: "threads"`: a bookmarks page or a forum's thread list.
struct ThreadListOutput: Encodable, Sendable {
  var kind = ScrapeKind.threads.rawValue
  @JSONNullable var forumID: String? = nil
  var isBookmarksPage: Bool
  var canPostNewThread: Bool
  @JSONNullable var page: PageNavigationOutput? = nil
  var breadcrumbs: [BreadcrumbOutput]
  var threads: [ThreadListThreadOutput]
  var announcements: [ThreadListAnnouncementOutput]
  var filterIcons: [ThreadTagOutput]
  /// The account's probation, when the page carries the banner: the page is read as usual.
  @JSONNullable var probation: ProbationOutput? = nil

  init(_ list: ThreadListPage) {
    forumID = list.forumID
    isBookmarksPage = list.isBookmarksPage
    canPostNewThread = list.canPostNewThread
    page = list.page.map(PageNavigationOutput.init)
    breadcrumbs = list.breadcrumbs.map(BreadcrumbOutput.init)
    threads = list.threads.map(ThreadListThreadOutput.init)
    announcements = list.announcements.map(ThreadListAnnouncementOutput.init)
    filterIcons = list.filterIcons.map(ThreadTagOutput.init)
    probation = list.probation.map(ProbationOutput.init)
  }
}
