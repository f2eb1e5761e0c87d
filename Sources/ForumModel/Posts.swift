import Foundation

/// The user sidebar of a post, PM or profile (`td.userinfo`).
package struct PostAuthor: Sendable, Hashable, Codable {
  package var name: String
  package var id: String?
  package var isOriginalPoster: Bool
  package var isAdministrator: Bool
  package var isModerator: Bool
  package var regdate: Date?
  /// The custom title's inner HTML (kept raw: renderers do not show it).
  package var customTitleHTML: String?
  /// Other classes of `dt.author` (`platinum`, `role-banned`, …).
  package var additionalClasses: [String]

  package init(
    name: String, id: String? = nil, isOriginalPoster: Bool = false, isAdministrator: Bool = false,
    isModerator: Bool = false, regdate: Date? = nil, customTitleHTML: String? = nil, additionalClasses: [String] = []
  ) {
    self.name = name
    self.id = id
    self.isOriginalPoster = isOriginalPoster
    self.isAdministrator = isAdministrator
    self.isModerator = isModerator
    self.regdate = regdate
    self.customTitleHTML = customTitleHTML
    self.additionalClasses = additionalClasses
  }
}

/// One `table.post`.
package struct Post: Sendable, Hashable, Codable {
  package var id: String
  /// 1-based index in the whole thread: `data-idx`, else derived from a neighbour or from the page position.
  package var index: Int
  /// True when `index` came from `data-idx` itself rather than being derived.
  package var indexIsExplicit: Bool
  package var author: PostAuthor
  package var date: Date?
  package var dateRaw: String?
  package var hasBeenSeen: Bool
  package var isIgnored: Bool
  package var isEditable: Bool
  package var authorCanReceivePrivateMessages: Bool
  /// Inner HTML of the post body (`div.complete_shit`, else `td.postbody`), edit note removed.
  package var bodyHTML: String
  /// The body as a rich-text tree.
  @RichTextBody package var body: [RichText]
  /// Text of `p.editedby`, when present and non-empty.
  package var editNote: String?

  package init(
    id: String, index: Int, indexIsExplicit: Bool = true, author: PostAuthor, date: Date? = nil,
    dateRaw: String? = nil, hasBeenSeen: Bool = false, isIgnored: Bool = false, isEditable: Bool = false,
    authorCanReceivePrivateMessages: Bool = false, bodyHTML: String = "", body: [RichText] = [],
    editNote: String? = nil
  ) {
    self.id = id
    self.index = index
    self.indexIsExplicit = indexIsExplicit
    self.author = author
    self.date = date
    self.dateRaw = dateRaw
    self.hasBeenSeen = hasBeenSeen
    self.isIgnored = isIgnored
    self.isEditable = isEditable
    self.authorCanReceivePrivateMessages = authorCanReceivePrivateMessages
    self.bodyHTML = bodyHTML
    self.body = body
    self.editNote = editNote
  }
}

/// `showthread.php`, scraped.
package struct PostsPage: Sendable, Hashable, Codable {
  package var threadID: String
  package var threadTitle: String
  package var forumID: String?
  package var breadcrumbs: [Breadcrumb]
  package var isClosed: Bool
  /// nil when the page does not show the bookmark button.
  package var isBookmarked: Bool?
  package var isSingleUserFilterEnabled: Bool
  package var page: PageNavigation?
  package var postsPerPage: Int
  package var posts: [Post]
  /// 1-based index on this page of the first unread post (`#pti<N>` or the first unseen row), when known.
  package var firstUnreadIndexOnPage: Int?
  /// The account's probation, when the page carries the banner.
  package var probation: Probation?

  package init(
    threadID: String, threadTitle: String, forumID: String? = nil, breadcrumbs: [Breadcrumb] = [],
    isClosed: Bool = false, isBookmarked: Bool? = nil, isSingleUserFilterEnabled: Bool = false,
    page: PageNavigation? = nil, postsPerPage: Int = forumPageSize, posts: [Post] = [],
    firstUnreadIndexOnPage: Int? = nil, probation: Probation? = nil
  ) {
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.forumID = forumID
    self.breadcrumbs = breadcrumbs
    self.isClosed = isClosed
    self.isBookmarked = isBookmarked
    self.isSingleUserFilterEnabled = isSingleUserFilterEnabled
    self.page = page
    self.postsPerPage = postsPerPage
    self.posts = posts
    self.firstUnreadIndexOnPage = firstUnreadIndexOnPage
    self.probation = probation
  }
}

/// `showthread.php?action=showpost&postid=P`, scraped.
package struct ShowPostPage: Sendable, Hashable, Codable {
  package var threadID: String?
  package var threadTitle: String?
  package var post: Post

  package init(threadID: String?, threadTitle: String?, post: Post) {
    self.threadID = threadID
    self.threadTitle = threadTitle
    self.post = post
  }
}
