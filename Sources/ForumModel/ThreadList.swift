import Foundation

/// A thread row of a bookmarks page or a forum's thread list (`tr.thread`).
package struct ThreadListThread: Sendable, Hashable, Codable {
  package var id: String
  package var title: String
  package var authorName: String?
  package var authorID: String?
  /// Replies, excluding the OP.
  package var replyCount: Int
  /// `div.lastseen a.count b`: unread posts including the OP; nil when nothing is new or never visited.
  package var unreadCount: Int?
  /// No `a.x` in `div.lastseen`: the account never opened the thread.
  package var neverVisited: Bool
  package var lastPostDate: Date?
  package var lastPostAuthor: String?
  package var isSticky: Bool
  package var isClosed: Bool
  package var star: StarColor?
  package var ratingCount: Int?
  package var ratingAverage: Double?
  package var ratingImageBasename: String?
  package var icon: ThreadTag?
  package var secondaryIcon: ThreadTag?

  package init(
    id: String, title: String, authorName: String? = nil, authorID: String? = nil, replyCount: Int = 0,
    unreadCount: Int? = nil, neverVisited: Bool = false, lastPostDate: Date? = nil, lastPostAuthor: String? = nil,
    isSticky: Bool = false, isClosed: Bool = false, star: StarColor? = nil, ratingCount: Int? = nil,
    ratingAverage: Double? = nil, ratingImageBasename: String? = nil, icon: ThreadTag? = nil,
    secondaryIcon: ThreadTag? = nil
  ) {
    self.id = id
    self.title = title
    self.authorName = authorName
    self.authorID = authorID
    self.replyCount = replyCount
    self.unreadCount = unreadCount
    self.neverVisited = neverVisited
    self.lastPostDate = lastPostDate
    self.lastPostAuthor = lastPostAuthor
    self.isSticky = isSticky
    self.isClosed = isClosed
    self.star = star
    self.ratingCount = ratingCount
    self.ratingAverage = ratingAverage
    self.ratingImageBasename = ratingImageBasename
    self.icon = icon
    self.secondaryIcon = secondaryIcon
  }

  /// Total posts including the OP (the count within `Clamp.forumNumber`, so `+ 1` cannot overflow).
  package var postCount: Int { Clamp.forumNumber(replyCount) + 1 }
  /// Number of the last page at 40 posts a page.
  package var lastPage: Int { replyCount / forumPageSize + 1 }
}

/// An announcement row in a thread list (`td.title a.announcement`). Announcements have no ids.
package struct ThreadListAnnouncement: Sendable, Hashable, Codable {
  package var title: String
  package var authorName: String?
  package var authorID: String?
  package var date: Date?
  package var icon: ThreadTag?

  package init(
    title: String, authorName: String? = nil, authorID: String? = nil, date: Date? = nil, icon: ThreadTag? = nil
  ) {
    self.title = title
    self.authorName = authorName
    self.authorID = authorID
    self.date = date
    self.icon = icon
  }
}

/// `bookmarkthreads.php` or `forumdisplay.php`, scraped.
package struct ThreadListPage: Sendable, Hashable, Codable {
  package var forumID: String?
  package var isBookmarksPage: Bool
  package var threads: [ThreadListThread]
  package var announcements: [ThreadListAnnouncement]
  package var breadcrumbs: [Breadcrumb]
  package var canPostNewThread: Bool
  package var filterIcons: [ThreadTag]
  package var page: PageNavigation?
  /// The account's probation, when the page carries the banner.
  package var probation: Probation?

  package init(
    forumID: String? = nil, isBookmarksPage: Bool = false, threads: [ThreadListThread] = [],
    announcements: [ThreadListAnnouncement] = [], breadcrumbs: [Breadcrumb] = [], canPostNewThread: Bool = false,
    filterIcons: [ThreadTag] = [], page: PageNavigation? = nil, probation: Probation? = nil
  ) {
    self.forumID = forumID
    self.isBookmarksPage = isBookmarksPage
    self.threads = threads
    self.announcements = announcements
    self.breadcrumbs = breadcrumbs
    self.canPostNewThread = canPostNewThread
    self.filterIcons = filterIcons
    self.page = page
    self.probation = probation
  }
}

extension ThreadListPage {
  /// Whether this page, read as page `number`, is the list's last: its navigation says so, or, where the forum shows
  /// none, it is empty or shorter than a full page.
  package func isLastPage(_ number: Int) -> Bool {
    threads.isEmpty || number >= (page?.total ?? (threads.count >= forumPageSize ? number + 1 : number))
  }
}
