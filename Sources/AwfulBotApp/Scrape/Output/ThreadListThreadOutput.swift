import AwfulScraping

/// One thread row of a thread list.
struct ThreadListThreadOutput: Encodable, Sendable {
  var id: String
  var title: String
  @JSONNullable var authorName: String? = nil
  @JSONNullable var authorID: String? = nil
  var replyCount: Int
  /// Replies plus the OP.
  var postCount: Int
  /// The last page at 40 posts a page.
  var lastPage: Int
  @JSONNullable var unreadCount: Int? = nil
  var neverVisited: Bool
  @JSONNullable var lastPostDate: String? = nil
  @JSONNullable var lastPostAuthor: String? = nil
  var isSticky: Bool
  var isClosed: Bool
  @JSONNullable var star: String? = nil
  @JSONNullable var ratingCount: Int? = nil
  @JSONNullable var ratingAverage: Double? = nil
  @JSONNullable var ratingImage: String? = nil
  @JSONNullable var icon: ThreadTagOutput? = nil
  @JSONNullable var secondaryIcon: ThreadTagOutput? = nil

  init(_ thread: ThreadListThread) {
    id = thread.id
    title = thread.title
    authorName = thread.authorName
    authorID = thread.authorID
    replyCount = thread.replyCount
    postCount = thread.postCount
    lastPage = thread.lastPage
    unreadCount = thread.unreadCount
    neverVisited = thread.neverVisited
    lastPostDate = ScrapeJSON.timestamp(thread.lastPostDate)
    lastPostAuthor = thread.lastPostAuthor
    isSticky = thread.isSticky
    isClosed = thread.isClosed
    star = thread.star?.name
    ratingCount = thread.ratingCount
    ratingAverage = thread.ratingAverage
    ratingImage = thread.ratingImageBasename
    icon = thread.icon.map(ThreadTagOutput.init)
    secondaryIcon = thread.secondaryIcon.map(ThreadTagOutput.init)
  }
}
