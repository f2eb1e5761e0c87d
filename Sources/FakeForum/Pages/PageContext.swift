import Foundation

/// What the page handlers share: how pages look (page navigation, dates, post indexes), and the session checks and
/// page parts common to the forum's pages. Helpers that read the forum take it as `isolated`, like the handlers, so
/// they run within the request's one turn on the state's actor.
struct PageContext: Sendable {
  let pageNav: PageNavStyle
  let dates: ForumDateFormatter
  /// FYAD-like mode: posts pages carry no `data-idx`.
  let omitPostIndexes: Bool

  init(configuration: FakeForumConfiguration) {
    pageNav = configuration.pageNav
    dates = ForumDateFormatter(timeZone: configuration.timeZone, clock: configuration.clock)
    omitPostIndexes = configuration.omitPostIndexes
  }

  // MARK: Sessions

  enum Access {
    case allowed(FakeUser)
    case denied(ForumResponse)
  }

  /// The logged-in user of a request: `sessionhash` must be a live session and `bbuserid` must name its user.
  func sessionUser(_ request: ForumRequest, state: isolated ForumState) -> FakeUser? {
    guard let token = request.cookies["sessionhash"], let userID = state.sessions.userID(token: token),
      let cookieUser = request.cookies["bbuserid"].flatMap({ Int($0) }), cookieUser == userID
    else { return nil }
    return state.user(userID)
  }

  /// A page that needs an account: the user, or the page the forum shows instead (logged out, banned).
  func requireUser(_ request: ForumRequest, state: isolated ForumState) -> Access {
    guard let user = sessionUser(request, state: state) else { return .denied(loggedOutResponse()) }
    if user.isBanned || state.faultSettings.banned {
      return .denied(.html(ErrorPages.banned(userName: user.name, userID: user.id)))
    }
    return .allowed(user)
  }

  /// The page for a request without a live session: the "must be a registered forums member" page, with the
  /// `bbuserid` cookie cleared (which is how clients notice they were logged out).
  func loggedOutResponse() -> ForumResponse {
    ForumResponse.html(ErrorPages.mustRegister()).adding(header: "Set-Cookie", Self.clearedCookie("bbuserid"))
  }

  static func clearedCookie(_ name: String) -> String {
    "\(name)=deleted; expires=Thu, 01-Jan-1970 00:00:01 GMT; Max-Age=0; path=/"
  }

  // MARK: Page parts

  func template(
    title: String, bodyClasses: String, bodyAttributes: String = "", user: FakeUser?, content: String,
    state: isolated ForumState
  ) -> String {
    PageTemplate(
      title: title, bodyClasses: bodyClasses, bodyAttributes: bodyAttributes, userName: user?.name, userID: user?.id,
      probation: state.faultSettings.probation && user != nil,
      probationEnd: probationEndText(state: state), modern: pageNav.isModern,
      content: content
    ).render()
  }

  /// The end of the probation fault as the banner prints it ("Mar  2, 2025 10:00").
  func probationEndText(state: isolated ForumState) -> String? {
    state.faultSettings.probationUntil.map { dates.postDate($0) }
  }

  func userName(_ id: Int, state: isolated ForumState) -> String { state.user(id)?.name ?? "Unknown User" }

  /// `div.breadcrumbs` for a forum (and optionally a thread at the end).
  func breadcrumbsHTML(
    forumID: Int, thread: FakeThread? = nil, extra: String = "", state: isolated ForumState
  ) -> String {
    var links = ["<a href=\"/\">The Something Awful Forums</a>"]
    let chain = state.forums.breadcrumbs(forumID: forumID)
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

  /// A post's or message's body as `td.postbody` shows it.
  static func html(_ body: FakePostBody) -> String {
    switch body {
    case .bbcode(let text): BBCodeRenderer.html(text)
    case .html(let html): html
    }
  }

  /// A body as BBCode, for quoting it in a reply (HTML bodies lose their tags).
  static func bbcodeSource(_ body: FakePostBody) -> String {
    switch body {
    case .bbcode(let text): return text
    case .html(let html):
      return html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
    }
  }

  // MARK: Requests

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
