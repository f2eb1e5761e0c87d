import Foundation

/// `showthread.php`: thread pages, `goto=` redirects, single posts, and marking a thread read or unread.
struct ThreadPages: Sendable {
  let context: PageContext

  enum RedirectFragment {
    case post
    case positionOnPage
  }

  /// `showthread.php`: thread pages, `goto=` redirects, `action=showpost`, `action=setseen|resetseen`.
  func showThread(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    switch request.value("action") {
    case "showpost": return showPost(request, user: user, state: state)
    case "setseen", "resetseen": return setSeen(request, user: user, state: state)
    default: break
    }
    if request.queryValue("goto") == "post" { return gotoPost(request, user: user, state: state) }
    guard let threadID = request.int("threadid"), let thread = state.thread(threadID) else {
      return .html(ErrorPages.invalidThread())
    }
    switch request.queryValue("goto") {
    case "lastpost":
      return gotoIndex(request, thread: thread, user: user, index: thread.postCount, fragment: .post, state: state)
    case "newpost":
      let next = min((state.lastRead(user: user.id, thread: threadID) ?? 0) + 1, thread.postCount)
      return gotoIndex(request, thread: thread, user: user, index: next, fragment: .positionOnPage, state: state)
    default: return threadPage(request, thread: thread, user: user, state: state)
    }
  }

  /// The forum drops `perpage` (and `noseen`) from the redirect target, like the real one.
  private func gotoIndex(
    _ request: ForumRequest, thread: FakeThread, user: FakeUser, index: Int, fragment: RedirectFragment,
    state: isolated ForumState
  ) -> ForumResponse {
    let perPage = context.perPage(request, user: user)
    let page = (max(1, index) - 1) / perPage + 1
    let anchor: String
    switch fragment {
    case .post: anchor = "#post\(state.threads.post(in: thread, index: index)?.id ?? 0)"
    case .positionOnPage: anchor = "#pti\((max(1, index) - 1) % perPage + 1)"
    }
    return .redirect(
      to: context.absolute(request, "/showthread.php?threadid=\(thread.id)&pagenumber=\(page)\(anchor)"))
  }

  private func gotoPost(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    guard let postID = request.int("postid"), let post = state.post(postID), let thread = state.thread(post.threadID)
    else {
      return .html(ErrorPages.invalidPost())
    }
    let page = (post.index - 1) / context.perPage(request, user: user) + 1
    return .redirect(
      to: context.absolute(request, "/showthread.php?threadid=\(thread.id)&pagenumber=\(page)#post\(post.id)"))
  }

  private func setSeen(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    guard let threadID = request.int("threadid"), let thread = state.thread(threadID) else {
      return .html(ErrorPages.invalidThread())
    }
    if request.value("action") == "resetseen" {
      state.setLastRead(user: user.id, thread: threadID, index: nil)
    } else {
      let index = max(0, min(request.int("index") ?? thread.postCount, thread.postCount))
      state.setLastRead(user: user.id, thread: threadID, index: index)
    }
    if request.value("json") == "1" { return .json(["result": "ok"]) }
    return .html(ErrorPages.redirect(message: "Thread marked.", linkPath: "showthread.php?threadid=\(threadID)"))
  }

  private func postModel(
    _ post: FakePost, thread: FakeThread, viewer: FakeUser, position: Int?, seen: Bool, userFilter: Bool,
    state: isolated ForumState
  ) -> PostModel? {
    guard let author = state.user(post.authorID) else { return nil }
    return PostModel(
      post: post, author: author, isOriginalPoster: post.authorID == thread.authorID,
      bodyHTML: PageContext.html(post.body), dateText: context.dates.postDate(post.date),
      registeredText: context.dates.registrationDate(author.regdate), seen: seen, positionOnPage: position,
      showIndex: position != nil && !context.omitPostIndexes, viewerIsAuthor: author.id == viewer.id,
      userFilterActive: userFilter)
  }

  /// A page of posts. Without `noseen=1` it marks the page's posts read for the viewer.
  private func threadPage(
    _ request: ForumRequest, thread: FakeThread, user: FakeUser, state: isolated ForumState
  ) -> ForumResponse {
    let pageNav = context.pageNav
    let perPage = context.perPage(request, user: user)
    let filterUser = request.int("userid").flatMap { $0 == 0 ? nil : $0 }
    let indexes: [Int]
    if let filterUser {
      indexes = (1...max(1, thread.postCount)).filter {
        state.threads.post(in: thread, index: $0)?.authorID == filterUser
      }
    } else {
      indexes = Array(1...max(1, thread.postCount))
    }
    let totalPages = max(1, (indexes.count + perPage - 1) / perPage)
    let page = min(max(1, request.int("pagenumber") ?? 1), totalPages)
    let pageIndexes = indexes.dropFirst((page - 1) * perPage).prefix(perPage)
    let readBefore = state.lastRead(user: user.id, thread: thread.id) ?? 0
    var tables: [String] = []
    for (position, index) in pageIndexes.enumerated() {
      guard let post = state.threads.post(in: thread, index: index),
        let model = postModel(
          post, thread: thread, viewer: user, position: position + 1, seen: index <= readBefore,
          userFilter: filterUser != nil, state: state)
      else { continue }
      tables.append(PostRenderer.table(model))
    }
    if request.value("noseen") != "1", let lastOnPage = pageIndexes.last, lastOnPage > readBefore {
      state.setLastRead(user: user.id, thread: thread.id, index: lastOnPage)
    }

    var base = "showthread.php?threadid=\(thread.id)&userid=\(filterUser ?? 0)&perpage=\(perPage)"
    if request.value("noseen") == "1" { base += "&noseen=1" }
    let nav = PageNavRenderer(style: pageNav, current: page, total: totalPages, baseURL: base, perPage: perPage)
    let bookmarked = state.bookmarks.star(user: user.id, thread: thread.id) != nil
    let bookmarkButton =
      "<li><img src=\"http://fi.somethingawful.com/images/buttons/button-\(bookmarked ? "unbookmark" : "bookmark").png\" alt=\"\" class=\"thread_bookmark \(bookmarked ? "unbookmark" : "bookmark")\"></li>"
    let replyImage = thread.isClosed ? "forum-closed.gif" : "forum-reply.gif"
    let buttons = """
      <ul class="postbuttons">
      \t\(bookmarkButton)
      \t<li><a href="newthread.php?action=newthread&amp;forumid=\(thread.forumID)"><img src="http://fi.somethingawful.com/images/forum-post.gif" alt="Post" title=""></a></li>
      <li><a href="newreply.php?action=newreply&amp;threadid=\(thread.id)"><img src="http://fi.somethingawful.com/images/\(replyImage)" alt="Reply" title=""></a></li>
      </ul>
      """
    // Old pages put the page list before the breadcrumbs; modern ones put it inside them.
    let header =
      pageNav.isModern
      ? context.breadcrumbsHTML(forumID: thread.forumID, thread: thread, extra: "\n    " + nav.render(), state: state)
      : PageNavRenderer(
        style: .old, current: page, total: totalPages, baseURL: base, perPage: perPage, extraClass: "top"
      ).render()
        + "\n" + context.breadcrumbsHTML(forumID: thread.forumID, thread: thread, state: state)
    let content = """
      \(header)

      <div style="clear:right;"></div>

      <div class="threadbar top">
      \(buttons)
      </div>
      <div id="thread" class="thread:\(thread.id)">
      \(tables.joined())
      </div>
      <div class="threadbar bottom">
      \(buttons)
      </div>
      \(PageNavRenderer(style: pageNav, current: page, total: totalPages, baseURL: base, perPage: perPage, extraClass: "bottom").render())
      """
    return .html(
      context.template(
        title: "\(thread.title) - The Something Awful Forums",
        bodyClasses: "showthread forum_\(thread.forumID) thread_\(thread.id)\(thread.isClosed ? " closed_thread" : "")",
        bodyAttributes: " data-forum=\"\(thread.forumID)\" data-thread=\"\(thread.id)\"", user: user, content: content,
        state: state))
  }

  /// `showthread.php?action=showpost&postid=P`: one post alone, as for reading an ignored post.
  private func showPost(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    guard let postID = request.int("postid"), let post = state.post(postID), let thread = state.thread(post.threadID),
      let model = postModel(
        post, thread: thread, viewer: user, position: nil,
        seen: post.index <= (state.lastRead(user: user.id, thread: thread.id) ?? 0), userFilter: false, state: state)
    else { return .html(ErrorPages.invalidPost()) }
    let content = """
      <div class="breadcrumbs"></div>
      <a name="post"></a>
      <div id="thread" class="thread:\(thread.id)">
      \(PostRenderer.table(model))
      </div>
      """
    return .html(
      context.template(
        title: "The Something Awful Forums - \(thread.title)", bodyClasses: "showpost", user: user, content: content,
        state: state))
  }
}
