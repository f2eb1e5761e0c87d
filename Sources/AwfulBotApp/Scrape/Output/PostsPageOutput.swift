import AwfulScraping

/// `kind: "posts"`: a thread page (`showthread.php`).
struct PostsPageOutput: Encodable, Sendable {
  var kind = ScrapeKind.posts.rawValue
  var threadID: String
  var threadTitle: String
  @JSONNullable var forumID: String? = nil
  var breadcrumbs: [BreadcrumbOutput]
  var isClosed: Bool
  @JSONNullable var isBookmarked: Bool? = nil
  var isSingleUserFilterEnabled: Bool
  @JSONNullable var page: PageNavigationOutput? = nil
  var postsPerPage: Int
  @JSONNullable var firstUnreadIndexOnPage: Int? = nil
  var posts: [PostOutput]
  /// The account's probation, when the page carries the banner: the page is read as usual.
  @JSONNullable var probation: ProbationOutput? = nil

  init(_ page: PostsPage, format: ScrapeBodyFormat) {
    threadID = page.threadID
    threadTitle = page.threadTitle
    forumID = page.forumID
    breadcrumbs = page.breadcrumbs.map(BreadcrumbOutput.init)
    isClosed = page.isClosed
    isBookmarked = page.isBookmarked
    isSingleUserFilterEnabled = page.isSingleUserFilterEnabled
    self.page = page.page.map(PageNavigationOutput.init)
    postsPerPage = page.postsPerPage
    firstUnreadIndexOnPage = page.firstUnreadIndexOnPage
    posts = page.posts.map { PostOutput($0, format: format) }
    probation = page.probation.map(ProbationOutput.init)
  }
}
