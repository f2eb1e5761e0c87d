import Foundation

/// `account.php` (logging in and out) and `index.php` (the forum list, and its JSON for clients).
struct AccountPages: Sendable {
  let context: PageContext

  /// `POST account.php?json=1` with `action=login`: cookies and a redirect to `next`; bad credentials get the
  /// standard error page. `action=logout` clears the cookies.
  func account(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    switch request.value("action") {
    case "login" where request.isPost: return login(request, state: state)
    case "logout":
      if let token = request.cookies["sessionhash"] { state.endSession(token: token) }
      var response = ForumResponse.redirect(to: context.absolute(request, "/index.php"))
      for name in ["bbuserid", "bbpassword", "sessionhash"] {
        response = response.adding(header: "Set-Cookie", PageContext.clearedCookie(name))
      }
      return response
    default:
      return .html(
        ErrorPages.standardError(
          message: "Please log in.", extra: "<form action=\"account.php\" method=\"POST\"></form>"))
    }
  }

  private func login(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    guard let name = request.value("username"), let password = request.value("password"),
      let userID = state.userID(named: name), let user = state.user(userID), user.password == password
    else { return .html(ErrorPages.badLogin()) }
    let token = state.startSession(user: user.id)
    var next = request.value("next") ?? "/index.php"
    if next.isEmpty || next.contains("://") { next = "/index.php" }
    let expires = "expires=Fri, 31-Dec-2037 23:55:55 GMT; path=/"
    return ForumResponse.redirect(to: context.absolute(request, next))
      .adding(header: "Set-Cookie", "bbuserid=\(user.id); \(expires)")
      .adding(header: "Set-Cookie", "bbpassword=\(Self.passwordCookie(for: user)); \(expires)")
      .adding(header: "Set-Cookie", "sessionhash=\(token); path=/; HttpOnly")
  }

  /// The `bbpassword` cookie: a hash, never the password.
  static func passwordCookie(for user: FakeUser) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(user.id):\(user.password)".utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(format: "%016llx%016llx", hash, ~hash)
  }

  /// `index.php?json=1`: the forum tree, stats and the logged-in user (JSON skips the HTML error pages, but a
  /// banned account still gets the banned page, which is how a client learns it was banned at login).
  func index(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user = context.sessionUser(request, state: state)
    if let user, user.isBanned || state.faultSettings.banned {
      return .html(ErrorPages.banned(userName: user.name, userID: user.id))
    }
    guard request.queryValue("json") == "1" else {
      guard let user else { return context.loggedOutResponse() }
      return .html(indexHTML(user: user, state: state))
    }
    let document = IndexDocument(
      stats: indexStats(state: state), user: user.map { indexUser($0, state: state) },
      forums: state.forums.groups.map { indexNode($0, state: state) })
    let response = ForumResponse.json(document)
    return user == nil ? response.adding(header: "Set-Cookie", PageContext.clearedCookie("bbuserid")) : response
  }

  private func indexNode(_ node: FakeForumNode, state: isolated ForumState) -> IndexDocument.Node {
    IndexDocument.Node(
      id: node.id, title: node.title, title_short: node.shortTitle, has_threads: node.hasThreads, icon: node.icon,
      sub_forums: state.forums.children(of: node).map { indexNode($0, state: state) },
      moderators: node.moderatorIDs.compactMap { state.user($0) }.map { .init(userid: $0.id, username: $0.name) })
  }

  private func indexUser(_ user: FakeUser, state: isolated ForumState) -> IndexDocument.User {
    let posts = state.threads.storedPostStats(author: user.id)
    let days = max(1, state.now().timeIntervalSince(user.regdate) / 86_400)
    return IndexDocument.User(
      userid: user.id, username: user.name, homepage: "", icq: "", aim: "", yahoo: "", gender: "U",
      usertitle: user.customTitleHTML, joindate: Int(user.regdate.timeIntervalSince1970),
      lastpost: Int(posts.last?.timeIntervalSince1970 ?? 0), posts: posts.count, receivepm: 1,
      postsperday: (Double(posts.count) / days * 100).rounded() / 100,
      role: user.isAdmin ? "A" : user.isModerator ? "M" : "",
      biography: "", location: "", interests: "", occupation: "", picture: "")
  }

  private func indexStats(state: isolated ForumState) -> IndexDocument.Stats {
    IndexDocument.Stats(
      archived_posts: 0, archived_threads: 0, banned_users: state.users.bannedCount,
      banned_users_total: state.users.bannedCount, online_registered: state.sessions.count,
      online_total: state.sessions.count, unique_posts: state.threads.postCount,
      unique_threads: state.threads.threadCount, usercount: state.users.count)
  }

  private func indexHTML(user: FakeUser, state: isolated ForumState) -> String {
    var content = "<div class=\"breadcrumbs\"><b><a href=\"/index.php\">The Something Awful Forums</a></b></div>\n"
    content += "<table id=\"forums\">\n"
    for group in state.forums.groups {
      content +=
        "<tr class=\"section\"><th colspan=\"2\"><a href=\"forumdisplay.php?forumid=\(group.id)\">\(HTMLText.escape(group.title))</a></th></tr>\n"
      for forum in state.forums.children(of: group) {
        content +=
          "<tr class=\"forum forum_\(forum.id)\"><td class=\"title\"><a class=\"forum\" href=\"forumdisplay.php?forumid=\(forum.id)\">\(HTMLText.escape(forum.title))</a></td></tr>\n"
      }
    }
    content += "</table>\n"
    return context.template(
      title: "The Something Awful Forums", bodyClasses: "index", user: user, content: content, state: state)
  }
}
