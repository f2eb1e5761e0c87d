import Foundation

extension ForumState {
  /// `POST account.php?json=1` with `action=login`: cookies and a redirect to `next`; bad credentials get the
  /// standard error page. `action=logout` clears the cookies.
  func account(_ request: ForumRequest) -> ForumResponse {
    switch request.value("action") {
    case "login" where request.isPost: return login(request)
    case "logout":
      if let token = request.cookies["sessionhash"] { sessions[token] = nil }
      var response = ForumResponse.redirect(to: absolute(request, "/index.php"))
      for name in ["bbuserid", "bbpassword", "sessionhash"] {
        response = response.adding(header: "Set-Cookie", Self.clearedCookie(name))
      }
      return response
    default:
      return .html(
        ErrorPages.standardError(
          message: "Please log in.", extra: "<form action=\"account.php\" method=\"POST\"></form>"))
    }
  }

  private func login(_ request: ForumRequest) -> ForumResponse {
    guard let name = request.value("username"), let password = request.value("password"),
      let userID = userID(named: name), let user = users[userID], user.password == password
    else { return .html(ErrorPages.badLogin()) }
    let token = newSession(user: user.id)
    var next = request.value("next") ?? "/index.php"
    if next.isEmpty || next.contains("://") { next = "/index.php" }
    let expires = "expires=Fri, 31-Dec-2037 23:55:55 GMT; path=/"
    return ForumResponse.redirect(to: absolute(request, next))
      .adding(header: "Set-Cookie", "bbuserid=\(user.id); \(expires)")
      .adding(header: "Set-Cookie", "bbpassword=\(passwordCookie(for: user)); \(expires)")
      .adding(header: "Set-Cookie", "sessionhash=\(token); path=/; HttpOnly")
  }

  /// `index.php?json=1`: the forum tree, stats and the logged-in user (JSON skips the HTML error pages, but a
  /// banned account still gets the banned page, which is how a client learns it was banned at login).
  func index(_ request: ForumRequest) -> ForumResponse {
    let user = sessionUser(cookies: request.cookies)
    if let user, user.isBanned || faultSettings.banned {
      return .html(ErrorPages.banned(userName: user.name, userID: user.id))
    }
    guard request.queryValue("json") == "1" else {
      guard let user else { return loggedOutResponse() }
      return .html(indexHTML(user: user))
    }
    let document = IndexDocument(
      stats: indexStats(), user: user.map(indexUser), forums: groupIDs.compactMap { forums[$0] }.map(indexNode))
    let response = ForumResponse.json(document)
    return user == nil ? response.adding(header: "Set-Cookie", Self.clearedCookie("bbuserid")) : response
  }

  private func indexNode(_ node: FakeForumNode) -> IndexDocument.Node {
    IndexDocument.Node(
      id: node.id, title: node.title, title_short: node.shortTitle, has_threads: node.hasThreads, icon: node.icon,
      sub_forums: node.childIDs.compactMap { forums[$0] }.map(indexNode),
      moderators: node.moderatorIDs.compactMap { users[$0] }.map { .init(userid: $0.id, username: $0.name) })
  }

  private func indexUser(_ user: FakeUser) -> IndexDocument.User {
    let postCount = posts.values.reduce(0) { $0 + ($1.authorID == user.id ? 1 : 0) }
    let lastPost = posts.values.filter { $0.authorID == user.id }.map(\.date).max()
    let days = max(1, now().timeIntervalSince(user.regdate) / 86_400)
    return IndexDocument.User(
      userid: user.id, username: user.name, homepage: "", icq: "", aim: "", yahoo: "", gender: "U",
      usertitle: user.customTitleHTML, joindate: Int(user.regdate.timeIntervalSince1970),
      lastpost: Int(lastPost?.timeIntervalSince1970 ?? 0), posts: postCount, receivepm: 1,
      postsperday: (Double(postCount) / days * 100).rounded() / 100,
      role: user.isAdmin ? "A" : user.isModerator ? "M" : "",
      biography: "", location: "", interests: "", occupation: "", picture: "")
  }

  private func indexStats() -> IndexDocument.Stats {
    IndexDocument.Stats(
      archived_posts: 0, archived_threads: 0, banned_users: users.values.filter(\.isBanned).count,
      banned_users_total: users.values.filter(\.isBanned).count, online_registered: sessions.count,
      online_total: sessions.count, unique_posts: threads.values.reduce(0) { $0 + $1.postCount },
      unique_threads: threads.count, usercount: users.count)
  }

  private func indexHTML(user: FakeUser) -> String {
    var content = "<div class=\"breadcrumbs\"><b><a href=\"/index.php\">The Something Awful Forums</a></b></div>\n"
    content += "<table id=\"forums\">\n"
    for group in groupIDs.compactMap({ forums[$0] }) {
      content +=
        "<tr class=\"section\"><th colspan=\"2\"><a href=\"forumdisplay.php?forumid=\(group.id)\">\(HTMLText.escape(group.title))</a></th></tr>\n"
      for forum in group.childIDs.compactMap({ forums[$0] }) {
        content +=
          "<tr class=\"forum forum_\(forum.id)\"><td class=\"title\"><a class=\"forum\" href=\"forumdisplay.php?forumid=\(forum.id)\">\(HTMLText.escape(forum.title))</a></td></tr>\n"
      }
    }
    content += "</table>\n"
    return template(title: "The Something Awful Forums", bodyClasses: "index", user: user, content: content)
  }
}

/// The shape of `index.php?json=1` (keys as the forum spells them).
struct IndexDocument: Encodable {
  struct Stats: Encodable {
    var archived_posts: Int
    var archived_threads: Int
    var banned_users: Int
    var banned_users_total: Int
    var online_registered: Int
    var online_total: Int
    var unique_posts: Int
    var unique_threads: Int
    var usercount: Int
  }

  struct User: Encodable {
    var userid: Int
    var username: String
    var homepage: String
    var icq: String
    var aim: String
    var yahoo: String
    var gender: String
    var usertitle: String
    var joindate: Int
    var lastpost: Int
    var posts: Int
    var receivepm: Int
    var postsperday: Double
    var role: String
    var biography: String
    var location: String
    var interests: String
    var occupation: String
    var picture: String
  }

  struct Moderator: Encodable {
    var userid: Int
    var username: String
  }

  struct Node: Encodable {
    var id: Int
    var title: String
    var title_short: String
    var has_threads: Bool
    var icon: String
    var sub_forums: [Node]
    var moderators: [Moderator]
  }

  var stats: Stats
  var user: User?
  var forums: [Node]
}
