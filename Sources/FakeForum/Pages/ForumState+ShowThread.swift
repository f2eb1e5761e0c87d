import Foundation

extension ForumState {
  /// `showthread.php`: thread pages, `goto=` redirects, `action=showpost`, `action=setseen|resetseen`.
  func showThread(_ request: ForumRequest) -> ForumResponse {
    let user: FakeUser
    switch requireUser(request) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    switch request.value("action") {
    case "showpost": return showPost(request, user: user)
    case "setseen", "resetseen": return setSeen(request, user: user)
    default: break
    }
    if request.queryValue("goto") == "post" { return gotoPost(request, user: user) }
    guard let threadID = request.int("threadid"), let thread = threads[threadID] else {
      return .html(ErrorPages.invalidThread())
    }
    switch request.queryValue("goto") {
    case "lastpost": return gotoIndex(request, thread: thread, user: user, index: thread.postCount, fragment: .post)
    case "newpost":
      let next = min((lastRead[user.id]?[threadID] ?? 0) + 1, thread.postCount)
      return gotoIndex(request, thread: thread, user: user, index: next, fragment: .positionOnPage)
    default: return threadPage(request, thread: thread, user: user)
    }
  }

  enum RedirectFragment {
    case post
    case positionOnPage
  }

  /// The forum drops `perpage` (and `noseen`) from the redirect target, like the real one.
  private func gotoIndex(
    _ request: ForumRequest, thread: FakeThread, user: FakeUser, index: Int, fragment: RedirectFragment
  ) -> ForumResponse {
    let perPage = perPage(request, user: user)
    let page = (max(1, index) - 1) / perPage + 1
    let anchor: String
    switch fragment {
    case .post: anchor = "#post\(post(in: thread, index: index)?.id ?? 0)"
    case .positionOnPage: anchor = "#pti\((max(1, index) - 1) % perPage + 1)"
    }
    return .redirect(to: absolute(request, "/showthread.php?threadid=\(thread.id)&pagenumber=\(page)\(anchor)"))
  }

  private func gotoPost(_ request: ForumRequest, user: FakeUser) -> ForumResponse {
    guard let postID = request.int("postid"), let post = post(postID), let thread = threads[post.threadID] else {
      return .html(ErrorPages.invalidPost())
    }
    let page = (post.index - 1) / perPage(request, user: user) + 1
    return .redirect(
      to: absolute(request, "/showthread.php?threadid=\(thread.id)&pagenumber=\(page)#post\(post.id)"))
  }

  private func setSeen(_ request: ForumRequest, user: FakeUser) -> ForumResponse {
    guard let threadID = request.int("threadid"), let thread = threads[threadID] else {
      return .html(ErrorPages.invalidThread())
    }
    if request.value("action") == "resetseen" {
      lastRead[user.id]?[threadID] = nil
    } else {
      let index = max(0, min(request.int("index") ?? thread.postCount, thread.postCount))
      lastRead[user.id, default: [:]][threadID] = index
    }
    if request.value("json") == "1" { return .json(["result": "ok"]) }
    return .html(ErrorPages.redirect(message: "Thread marked.", linkPath: "showthread.php?threadid=\(threadID)"))
  }

  func postModel(
    _ post: FakePost, thread: FakeThread, viewer: FakeUser, position: Int?, seen: Bool, userFilter: Bool
  ) -> PostModel? {
    guard let author = users[post.authorID] else { return nil }
    return PostModel(
      post: post, author: author, isOriginalPoster: post.authorID == thread.authorID,
      bodyHTML: render(post.body), dateText: dates.postDate(post.date),
      registeredText: dates.registrationDate(author.regdate), seen: seen, positionOnPage: position,
      showIndex: position != nil && !omitPostIndexes, viewerIsAuthor: author.id == viewer.id,
      userFilterActive: userFilter)
  }

  func render(_ body: FakePostBody) -> String {
    switch body {
    case .bbcode(let text): BBCodeRenderer.html(text)
    case .html(let html): html
    }
  }

  /// A page of posts. Without `noseen=1` it marks the page's posts read for the viewer.
  private func threadPage(_ request: ForumRequest, thread: FakeThread, user: FakeUser) -> ForumResponse {
    let perPage = perPage(request, user: user)
    let filterUser = request.int("userid").flatMap { $0 == 0 ? nil : $0 }
    let indexes: [Int]
    if let filterUser {
      indexes = (1...max(1, thread.postCount)).filter { post(in: thread, index: $0)?.authorID == filterUser }
    } else {
      indexes = Array(1...max(1, thread.postCount))
    }
    let totalPages = max(1, (indexes.count + perPage - 1) / perPage)
    let page = min(max(1, request.int("pagenumber") ?? 1), totalPages)
    let pageIndexes = indexes.dropFirst((page - 1) * perPage).prefix(perPage)
    let readBefore = lastRead[user.id]?[thread.id] ?? 0
    var tables: [String] = []
    for (position, index) in pageIndexes.enumerated() {
      guard let post = post(in: thread, index: index),
        let model = postModel(
          post, thread: thread, viewer: user, position: position + 1, seen: index <= readBefore,
          userFilter: filterUser != nil)
      else { continue }
      tables.append(PostRenderer.table(model))
    }
    if request.value("noseen") != "1", let lastOnPage = pageIndexes.last, lastOnPage > readBefore {
      lastRead[user.id, default: [:]][thread.id] = lastOnPage
    }

    var base = "showthread.php?threadid=\(thread.id)&userid=\(filterUser ?? 0)&perpage=\(perPage)"
    if request.value("noseen") == "1" { base += "&noseen=1" }
    let nav = PageNavRenderer(style: pageNav, current: page, total: totalPages, baseURL: base, perPage: perPage)
    let bookmarked = bookmarks[user.id]?[thread.id] != nil
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
      ? breadcrumbsHTML(forumID: thread.forumID, thread: thread, extra: "\n    " + nav.render())
      : PageNavRenderer(
        style: .old, current: page, total: totalPages, baseURL: base, perPage: perPage, extraClass: "top"
      ).render()
        + "\n" + breadcrumbsHTML(forumID: thread.forumID, thread: thread)
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
      template(
        title: "\(thread.title) - The Something Awful Forums",
        bodyClasses: "showthread forum_\(thread.forumID) thread_\(thread.id)\(thread.isClosed ? " closed_thread" : "")",
        bodyAttributes: " data-forum=\"\(thread.forumID)\" data-thread=\"\(thread.id)\"", user: user, content: content))
  }

  /// `showthread.php?action=showpost&postid=P`: one post alone, as for reading an ignored post.
  private func showPost(_ request: ForumRequest, user: FakeUser) -> ForumResponse {
    guard let postID = request.int("postid"), let post = post(postID), let thread = threads[post.threadID],
      let model = postModel(
        post, thread: thread, viewer: user, position: nil,
        seen: post.index <= (lastRead[user.id]?[thread.id] ?? 0), userFilter: false)
    else { return .html(ErrorPages.invalidPost()) }
    let content = """
      <div class="breadcrumbs"></div>
      <a name="post"></a>
      <div id="thread" class="thread:\(thread.id)">
      \(PostRenderer.table(model))
      </div>
      """
    return .html(
      template(
        title: "The Something Awful Forums - \(thread.title)", bodyClasses: "showpost", user: user, content: content))
  }
}
