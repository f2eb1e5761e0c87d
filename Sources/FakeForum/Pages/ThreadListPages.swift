import ForumModel
import Foundation

/// The thread lists: `bookmarkthreads.php` (the list, and bookmark changes), `forumdisplay.php`, and
/// `threadrate.php` (a vote, which the lists show as a thread's rating).
struct ThreadListPages: Sendable {
  let context: PageContext

  /// The JSON answer to a bookmark change.
  struct BookmarkResult: Encodable {
    var threadid: Int
    var bookmarked: Bool
    var category_id: Int
  }

  /// `GET bookmarkthreads.php?action=view&perpage=40&pagenumber=N`, and `POST bookmarkthreads.php` (json=1,
  /// action=add|remove, threadid, optional category_id = star colour).
  func bookmarkThreads(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    if request.isPost || request.value("action") == "add" || request.value("action") == "remove" {
      return changeBookmark(request, user: user, state: state)
    }
    let pageNav = context.pageNav
    let perPage = request.int("perpage").map { max(1, min($0, 40)) } ?? 40
    let all = state.bookmarkedThreadIDs(user: user.id)
    let totalPages = max(1, (all.count + perPage - 1) / perPage)
    let page = max(1, request.int("pagenumber") ?? 1)
    let rows = all.dropFirst((page - 1) * perPage).prefix(perPage).compactMap { state.thread($0) }.map {
      threadRow($0, viewer: user, state: state)
    }
    let nav = PageNavRenderer(
      style: pageNav, current: min(page, totalPages), total: totalPages,
      baseURL: "bookmarkthreads.php?action=view&perpage=\(perPage)", perPage: perPage)
    let content = """
      <div class="breadcrumbs"><b><a href="index.php">The Something Awful Forums</a> &gt; Bookmarked Threads</b></div>
      <form method="POST" action="/bookmarkthreads.php" name="bookmarks">
      <div>
      There are two ways to delete bookmarks.  You can either click on the star icon until it turns clear, or use the &quot;Edit Bookmarks&quot; button to enable the quick delete feature.
      </div>
      \(nav.render())
      <span id="bookmark_edit_attach"></span>
      \(ThreadListRenderer.table(announcements: [], rows: Array(rows), sortBase: "bookmarkthreads.php?pagenumber=\(page)&perpage=\(perPage)"))
      <div class="forumbar">
      \t<ul class="postbuttons"><li></li></ul>
      </div>
      \(PageNavRenderer(style: pageNav, current: min(page, totalPages), total: totalPages, baseURL: "bookmarkthreads.php?action=view&perpage=\(perPage)", perPage: perPage, extraClass: "bottom").render())
      </form>
      """
    return .html(
      context.template(
        title: "Bookmarked threads - The Something Awful Forums", bodyClasses: "bookmark_threads", user: user,
        content: content, state: state))
  }

  private func changeBookmark(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    guard let threadID = request.int("threadid"), state.thread(threadID) != nil else {
      return .html(ErrorPages.invalidThread())
    }
    switch request.value("action") {
    case "add":
      // A star given replaces the thread's; none keeps it (orange for a new bookmark). Cannot fail: the thread was
      // found above and the user is the session's.
      let star = request.int("category_id").flatMap(StarColor.init(rawValue:))
      try? state.addBookmark(
        user: user.id, thread: threadID, star: star ?? state.bookmarks.star(user: user.id, thread: threadID) ?? .orange)
    case "remove":
      state.removeBookmark(user: user.id, thread: threadID)
    default:
      return .html(ErrorPages.standardError(message: "Invalid action specified."))
    }
    let star = state.bookmarks.star(user: user.id, thread: threadID)
    return .json(BookmarkResult(threadid: threadID, bookmarked: star != nil, category_id: star?.rawValue ?? -1))
  }

  /// `GET forumdisplay.php?forumid=F&perpage=40&pagenumber=N[&posticon=I]`. Page -1 lists announcements only.
  func forumDisplay(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    guard let forumID = request.int("forumid"), let forum = state.forums.node(forumID) else {
      return .html(ErrorPages.invalidForum())
    }
    let pageNav = context.pageNav
    let perPage = request.int("perpage").map { max(1, min($0, 40)) } ?? 40
    let icon = request.int("posticon").flatMap { $0 == 0 ? nil : $0 }
    let all = state.listedThreads(forum: forumID)
    let filtered = icon.map { id in all.filter { $0.icon.id == id } } ?? all
    let totalPages = max(1, (filtered.count + perPage - 1) / perPage)
    let requested = request.int("pagenumber") ?? 1
    let page = max(1, requested)
    let rows =
      requested < 0
      ? []
      : filtered.dropFirst((page - 1) * perPage).prefix(perPage).map { threadRow($0, viewer: user, state: state) }
    let base = "forumdisplay.php?forumid=\(forumID)&daysprune=30&perpage=\(perPage)&posticon=\(icon ?? 0)"
    let nav = PageNavRenderer(
      style: pageNav, current: min(page, totalPages), total: totalPages, baseURL: base, perPage: perPage)
    let bottomNav = PageNavRenderer(
      style: pageNav, current: min(page, totalPages), total: totalPages, baseURL: base, perPage: perPage,
      extraClass: "bottom")
    var seenIcons = Set<Int>()
    let tags = all.map(\.icon).filter { seenIcons.insert($0.id).inserted }.map {
      "<a href=\"/forumdisplay.php?forumid=\(forumID)&amp;posticon=\($0.id)\"><img src=\"\(HTMLText.escape($0.imageURL))\" width=\"60\" height=\"15\" alt=\"\"></a>"
    }
    let inArchives = state.forums.breadcrumbs(forumID: forumID).first?.id == 49
    let postButton =
      forum.hasThreads && !inArchives
      ? "<li><a href=\"newthread.php?action=newthread&amp;forumid=\(forumID)\"><img src=\"http://fi.somethingawful.com/images/forum-post.gif\" alt=\"Post New Thread\"></a></li>"
      : "<li></li>"
    let content = """
      \(context.breadcrumbsHTML(forumID: forumID, state: state))
      \(nav.render())
      <div id="filter">
      <div class="toggle_tags">Filter Posts</div>
      <div class="thread_tags">
      \t\(tags.joined(separator: "  "))
      \t<div class="remove_tag">
      \t\t<a href="/forumdisplay.php?forumid=\(forumID)">Remove filter</a>
      \t</div>
      </div>
      </div>
      \(ThreadListRenderer.table(announcements: announcementRows(state: state), rows: Array(rows), sortBase: base))
      <div class="forumbar">
      \t<ul class="postbuttons">\(postButton)</ul>
      </div>
      \(bottomNav.render())
      """
    return .html(
      context.template(
        title: "\(forum.title) - The Something Awful Forums", bodyClasses: "forumdisplay forum_\(forumID)",
        bodyAttributes: " data-forum=\"\(forumID)\"", user: user, content: content, state: state))
  }

  /// `POST threadrate.php` with `vote` 1…5 and `threadid`.
  func rateThread(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    guard case .allowed = context.requireUser(request, state: state) else { return context.loggedOutResponse() }
    guard let threadID = request.int("threadid") else { return .html(ErrorPages.invalidThread()) }
    do {
      try state.rate(thread: threadID, vote: request.int("vote") ?? 5)
    } catch {
      return .html(ErrorPages.invalidThread())
    }
    return .html(ErrorPages.redirect(message: "Thank you for voting!", linkPath: "showthread.php?threadid=\(threadID)"))
  }

  private func threadRow(_ thread: FakeThread, viewer: FakeUser, state: isolated ForumState) -> ThreadRowModel {
    ThreadRowModel(
      thread: thread, authorName: context.userName(thread.authorID, state: state),
      lastPostAuthorName: context.userName(thread.lastPostAuthorID, state: state),
      lastPostDateText: context.dates.threadListDate(thread.lastPostDate),
      star: state.bookmarks.star(user: viewer.id, thread: thread.id),
      lastRead: state.lastRead(user: viewer.id, thread: thread.id))
  }

  private func announcementRows(state: isolated ForumState) -> [AnnouncementRowModel] {
    state.announcements.map {
      AnnouncementRowModel(
        title: $0.title, authorID: $0.authorID, authorName: context.userName($0.authorID, state: state),
        dateText: context.dates.threadListDate($0.date), iconURL: $0.icon.imageURL)
    }
  }
}
