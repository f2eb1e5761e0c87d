import Foundation

/// `query.php`, the forum's search (Platinum accounts only): the form (GET), the search (POST `action=query` with
/// `q` and `forums[]`, urlencoded, answered with a redirect to the first page of results) and the results
/// (`action=results&qid=Q&page=N`). An account without Platinum gets the standard "only accessible to Platinum
/// members" page for all three; a search within the search limit (`POST /_fake/search`, off by default) gets the
/// limit's own error page.
struct SearchPages: Sendable {
  let context: PageContext

  func query(_ request: ForumRequest, state: isolated ForumState) -> ForumResponse {
    let user: FakeUser
    switch context.requireUser(request, state: state) {
    case .denied(let response): return response
    case .allowed(let allowed): user = allowed
    }
    guard user.isPlatinum else { return .html(Self.requiresPlatinum()) }
    if request.isPost, request.value("action") == "query" { return search(request, user: user, state: state) }
    if request.queryValue("action") == "results" { return results(request, user: user, state: state) }
    return .html(
      context.template(
        title: "Search - The Something Awful Forums", bodyClasses: "searchresults", user: user,
        content: SearchRenderer.form(forums: Self.forumList(state: state)), state: state))
  }

  private func search(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    let query = (request.value("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    guard !query.isEmpty else {
      return .html(ErrorPages.standardError(message: "Please enter some words to search for."))
    }
    let forums = request.form.filter { $0.name == "forums[]" }.compactMap { Int($0.value) }
    switch state.runSearch(user: user.id, query: query, forumIDs: forums) {
    case .tooSoon(let limit, let remaining):
      return .html(
        ErrorPages.standardError(
          message:
            "This forum requires that you wait \(limit) seconds between searches. Please try again in \(remaining) seconds."
        ))
    case .found(let qid):
      return .redirect(to: context.absolute(request, "query.php?action=results&qid=\(qid)"))
    }
  }

  private func results(_ request: ForumRequest, user: FakeUser, state: isolated ForumState) -> ForumResponse {
    guard let qid = request.int("qid"), let search = state.searches.search(qid), search.userID == user.id else {
      return .html(ErrorPages.standardError(message: "Invalid search specified. Please search again."))
    }
    let perPage = state.searches.perPage
    let pages = max(1, (search.postIDs.count + perPage - 1) / perPage)
    let page = min(max(request.int("page") ?? 1, 1), pages)
    let firstIndex = (page - 1) * perPage
    var hits: [SearchRenderer.Hit] = []
    for (offset, postID) in search.postIDs.dropFirst(firstIndex).prefix(perPage).enumerated() {
      guard let post = state.post(postID), let thread = state.thread(post.threadID) else { continue }
      hits.append(
        SearchRenderer.Hit(
          number: firstIndex + offset + 1, post: post, threadTitle: thread.title, forumID: thread.forumID,
          forumTitle: state.forums.node(thread.forumID)?.title ?? "",
          authorName: context.userName(post.authorID, state: state),
          date: context.dates.postDate(post.date), text: ForumState.plainText(post.body)))
    }
    let content = SearchRenderer.results(
      qid: qid, query: search.query, words: search.words, total: search.postIDs.count, page: page, pages: pages,
      hits: hits)
    return .html(
      context.template(
        title: "Search Results - The Something Awful Forums", bodyClasses: "searchresults", user: user,
        content: content, state: state))
  }

  /// Every forum with its depth, groups first, as the form lists them.
  private static func forumList(state: isolated ForumState) -> [(node: FakeForumNode, depth: Int)] {
    var list: [(node: FakeForumNode, depth: Int)] = []
    func add(_ node: FakeForumNode, depth: Int) {
      list.append((node, depth))
      for child in state.forums.children(of: node) { add(child, depth: depth + 1) }
    }
    for group in state.forums.groups { add(group, depth: 0) }
    return list
  }

  /// The standard error page the forum shows an account without Platinum (`fixtures/sa/error-requires-plat.html`).
  static func requiresPlatinum() -> String {
    ErrorPages.standardError(
      message:
        "The feature you are trying to access (Private Messaging, search, etc) is only accessible to Platinum members. "
        + "We're sorry, but you cannot use this feature unless you have a Platinum account.",
      extra: """
        <br>
        <br>
        <b>Q: What a ripoff! I was never told about this! Why should I have to pay $10 to be able to search, when I can do it on other forums for free?</b><br>
        <br>
        <b>A:</b> That's a good point! Unfortunately, running a forum with nearly 95,000 users is a little tricky.<br>
        <a href="https://secure.somethingawful.com/products/platinum.php">Get a Platinum account.</a>
        """)
  }
}
