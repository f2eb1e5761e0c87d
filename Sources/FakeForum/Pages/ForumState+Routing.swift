import Foundation

extension ForumState {
  /// The forum's answer to one request, with the faults in force applied. The delay fault is applied by the caller
  /// (outside the actor, so a slow response does not hold up the whole forum).
  func respond(to request: ForumRequest) -> ForumResponse {
    if takeServerError() {
      return ForumResponse.html(
        "<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>",
        status: 500)
    }
    if faultSettings.databaseUnavailable { return .html(ErrorPages.databaseUnavailable()) }
    var response = route(request)
    if faultSettings.truncatedHTML, response.isHTML {
      response.body = Array(response.body.prefix(response.body.count / 2))
    }
    return response
  }

  private func route(_ request: ForumRequest) -> ForumResponse {
    switch request.path {
    case "/account.php": return account(request)
    case "/index.php", "/": return index(request)
    case "/bookmarkthreads.php": return bookmarkThreads(request)
    case "/forumdisplay.php": return forumDisplay(request)
    case "/showthread.php": return showThread(request)
    case "/newreply.php": return newReply(request)
    case "/announcement.php": return announcementPage(request)
    case "/threadrate.php": return rateThread(request)
    case "/private.php": return privateMessagesPage(request)
    default:
      return .html(
        "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>", status: 404)
    }
  }

  // MARK: Session checks shared by the pages

  /// The page for a request without a live session: the "must be a registered forums member" page, with the
  /// `bbuserid` cookie cleared (which is how clients notice they were logged out).
  func loggedOutResponse() -> ForumResponse {
    ForumResponse.html(ErrorPages.mustRegister()).adding(header: "Set-Cookie", Self.clearedCookie("bbuserid"))
  }

  static func clearedCookie(_ name: String) -> String {
    "\(name)=deleted; expires=Thu, 01-Jan-1970 00:00:01 GMT; Max-Age=0; path=/"
  }

  enum Access {
    case allowed(FakeUser)
    case denied(ForumResponse)
  }

  /// A page that needs an account: the user, or the page the forum shows instead (logged out, banned).
  func requireUser(_ request: ForumRequest) -> Access {
    guard let user = sessionUser(cookies: request.cookies) else { return .denied(loggedOutResponse()) }
    if user.isBanned || faultSettings.banned {
      return .denied(.html(ErrorPages.banned(userName: user.name, userID: user.id)))
    }
    return .allowed(user)
  }

  func template(
    title: String, bodyClasses: String, bodyAttributes: String = "", user: FakeUser?, content: String
  ) -> String {
    PageTemplate(
      title: title, bodyClasses: bodyClasses, bodyAttributes: bodyAttributes, userName: user?.name, userID: user?.id,
      probation: faultSettings.probation && user != nil,
      probationEnd: probationEndText, modern: pageNav.isModern,
      content: content
    ).render()
  }

  /// The end of the probation fault as the banner prints it ("Mar  2, 2025 10:00").
  var probationEndText: String? { faultSettings.probationUntil.map { dates.postDate($0) } }

  func userName(_ id: Int) -> String { users[id]?.name ?? "Unknown User" }

  /// `div.breadcrumbs` for a forum (and optionally a thread at the end).
  func breadcrumbsHTML(forumID: Int, thread: FakeThread? = nil, extra: String = "") -> String {
    var links = ["<a href=\"/\">The Something Awful Forums</a>"]
    let chain = breadcrumbs(forumID: forumID)
    for (n, node) in chain.enumerated() {
      let last = thread == nil && n == chain.count - 1
      links.append(
        "<a href=\"forumdisplay.php?forumid=\(node.id)\"\(last ? " class=\"bclast\"" : "")>\(HTMLText.escape(node.title))</a>"
      )
    }
    if let thread {
      links.append(
        "<a href=\"showthread.php?threadid=\(thread.id)\" class=\"bclast\">\(HTMLText.escape(thread.title))</a>")
    }
    return
      "<div class=\"breadcrumbs\"><span class=\"mainbodytextlarge\"><b>\(links.joined(separator: " &gt; "))</b></span>\(extra)</div>"
  }

  /// Absolute URL for a redirect, e.g. `http://127.0.0.1:8080/showthread.php?…`.
  func absolute(_ request: ForumRequest, _ pathAndQuery: String) -> String {
    request.baseURL + (pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery)
  }

  /// The per-page size a request asks for, else the user's own setting (what the forum falls back to).
  func perPage(_ request: ForumRequest, user: FakeUser?) -> Int {
    if let value = request.int("perpage"), value > 0 { return min(value, 40) }
    return user?.postsPerPage ?? 40
  }
}
