import ForumModel
import Foundation

extension ForumState {
  func threadRow(_ thread: FakeThread, viewer: FakeUser) -> ThreadRowModel {
    ThreadRowModel(
      thread: thread, authorName: userName(thread.authorID), lastPostAuthorName: userName(thread.lastPostAuthorID),
      lastPostDateText: dates.threadListDate(thread.lastPostDate), star: bookmarks[viewer.id]?[thread.id],
      lastRead: lastRead[viewer.id]?[thread.id])
  }

  var announcementRows: [AnnouncementRowModel] {
    announcements.map {
      AnnouncementRowModel(
        title: $0.title, authorID: $0.authorID, authorName: userName($0.authorID),
        dateText: dates.threadListDate($0.date), iconURL: $0.icon.imageURL)
    }
  }

  /// `GET bookmarkthreads.php?action=view&perpage=40&pagenumber=N`, and `POST bookmarkthreads.php` (json=1,
  /// action=add|remove, threadid, optional category_id = star colour).
  func bookmarkThreads(_ request: ForumRequest) -> ForumResponse {
    let user: FakeUser
    switch requireUser(request) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    if request.isPost || request.value("action") == "add" || request.value("action") == "remove" {
      return changeBookmark(request, user: user)
    }
    let perPage = request.int("perpage").map { max(1, min($0, 40)) } ?? 40
    let all = bookmarkedThreadIDs(user: user.id)
    let totalPages = max(1, (all.count + perPage - 1) / perPage)
    let page = max(1, request.int("pagenumber") ?? 1)
    let rows = all.dropFirst((page - 1) * perPage).prefix(perPage).compactMap { threads[$0] }.map {
      threadRow($0, viewer: user)
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
      template(
        title: "Bookmarked threads - The Something Awful Forums", bodyClasses: "bookmark_threads", user: user,
        content: content))
  }

  private func changeBookmark(_ request: ForumRequest, user: FakeUser) -> ForumResponse {
    guard let threadID = request.int("threadid"), threads[threadID] != nil else {
      return .html(ErrorPages.invalidThread())
    }
    switch request.value("action") {
    case "add":
      let star = request.int("category_id").flatMap(StarColor.init(rawValue:))
      bookmarks[user.id, default: [:]][threadID] = star ?? bookmarks[user.id]?[threadID] ?? .orange
    case "remove":
      bookmarks[user.id]?[threadID] = nil
    default:
      return .html(ErrorPages.standardError(message: "Invalid action specified."))
    }
    let star = bookmarks[user.id]?[threadID]
    return .json(BookmarkResult(threadid: threadID, bookmarked: star != nil, category_id: star?.rawValue ?? -1))
  }

  /// `GET forumdisplay.php?forumid=F&perpage=40&pagenumber=N[&posticon=I]`. Page -1 lists announcements only.
  func forumDisplay(_ request: ForumRequest) -> ForumResponse {
    let user: FakeUser
    switch requireUser(request) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    guard let forumID = request.int("forumid"), let forum = forums[forumID] else {
      return .html(ErrorPages.invalidForum())
    }
    let perPage = request.int("perpage").map { max(1, min($0, 40)) } ?? 40
    let icon = request.int("posticon").flatMap { $0 == 0 ? nil : $0 }
    let all = listedThreads(forum: forumID)
    let filtered = icon.map { id in all.filter { $0.icon.id == id } } ?? all
    let totalPages = max(1, (filtered.count + perPage - 1) / perPage)
    let requested = request.int("pagenumber") ?? 1
    let page = max(1, requested)
    let rows =
      requested < 0
      ? [] : filtered.dropFirst((page - 1) * perPage).prefix(perPage).map { threadRow($0, viewer: user) }
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
    let inArchives = breadcrumbs(forumID: forumID).first?.id == 49
    let postButton =
      forum.hasThreads && !inArchives
      ? "<li><a href=\"newthread.php?action=newthread&amp;forumid=\(forumID)\"><img src=\"http://fi.somethingawful.com/images/forum-post.gif\" alt=\"Post New Thread\"></a></li>"
      : "<li></li>"
    let content = """
      \(breadcrumbsHTML(forumID: forumID))
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
      \(ThreadListRenderer.table(announcements: announcementRows, rows: Array(rows), sortBase: base))
      <div class="forumbar">
      \t<ul class="postbuttons">\(postButton)</ul>
      </div>
      \(bottomNav.render())
      """
    return .html(
      template(
        title: "\(forum.title) - The Something Awful Forums", bodyClasses: "forumdisplay forum_\(forumID)",
        bodyAttributes: " data-forum=\"\(forumID)\"", user: user, content: content))
  }

  /// `POST threadrate.php` with `vote` 1…5 and `threadid`.
  func rateThread(_ request: ForumRequest) -> ForumResponse {
    guard case .allowed = requireUser(request) else { return loggedOutResponse() }
    guard let threadID = request.int("threadid"), var thread = threads[threadID] else {
      return .html(ErrorPages.invalidThread())
    }
    let vote = Double(max(1, min(5, request.int("vote") ?? 5)))
    let count = thread.ratingCount ?? 0
    let average = thread.ratingAverage ?? 0
    thread.ratingCount = count + 1
    thread.ratingAverage = (average * Double(count) + vote) / Double(count + 1)
    threads[threadID] = thread
    return .html(ErrorPages.redirect(message: "Thank you for voting!", linkPath: "showthread.php?threadid=\(threadID)"))
  }
}

/// The JSON answer to a bookmark change.
struct BookmarkResult: Encodable {
  var threadid: Int
  var bookmarked: Bool
  var category_id: Int
}
