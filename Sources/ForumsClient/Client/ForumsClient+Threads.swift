import ForumModel
import Foundation

extension ForumsClient {
  /// One page of a thread, 40 posts a page. Loaded with `noseen=1` unless the configuration updates read markers,
  /// so reading never moves the account's "last read" position by accident.
  package func threadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    try await withSession { try await loadThreadPage(threadID: threadID, page: page) }
  }

  /// Every post with an index greater than `index`, from the page holding `index + 1` to the end of the thread.
  package func posts(threadID: String, after index: Int) async throws -> PostsAfter {
    // One session for the whole walk: a re-login restarts it from the first page.
    try await withSession {
      try await PostsAfter.collect(threadID: threadID, after: index) { number in
        try await loadThreadPage(threadID: threadID, page: .number(number))
      }
    }
  }

  /// Marks the thread read up to post `index` (1-based, in the whole thread) on the forum.
  package func markRead(threadID: String, upTo index: Int) async throws {
    try await withSession {
      try await submit(
        .post(
          "showthread.php",
          form: [FormField("action", "setseen"), FormField("threadid", threadID), FormField("index", String(index))]))
    }
  }

  /// Which thread and page show post `postID`: read from the forum's redirect without following it.
  package func locatePost(postID: String) async throws -> PostLocation {
    try await withSession {
      let request = ForumRequest(
        .get, "showthread.php",
        query: [FormField("goto", "post"), FormField("postid", postID), FormField("noseen", "1")],
        followsRedirects: false)
      let response = try await transport.send(request)
      guard response.isRedirect, let location = response.location else {
        try PageReader.checkErrorPage(PageReader.errorPage(in: response))
        try await checkSessionCookie()
        guard response.isSuccess else { throw ForumsClientError.http(status: response.status) }
        throw ForumsClientError.postNotFound(postID: postID)
      }
      try await checkSessionCookie()
      let query = URLComponents(url: location, resolvingAgainstBaseURL: true)?.queryItems ?? []
      guard let threadID = query.first(where: { $0.name == "threadid" })?.value, !threadID.isEmpty else {
        throw ForumsClientError.postNotFound(postID: postID)
      }
      let page = query.first(where: { $0.name == "pagenumber" })?.value.flatMap(Int.init) ?? 1
      return PostLocation(threadID: threadID, page: page)
    }
  }

  func loadThreadPage(threadID: String, page: ThreadPageSelector) async throws -> PostsPage {
    var query: [(String, String)] = [("threadid", threadID), ("perpage", String(forumPageSize))]
    switch page {
    case .number(let number): query.append(("pagenumber", String(max(number, 1))))
    case .last: query.append(("goto", "lastpost"))
    }
    if !configuration.updatesReadMarkers {
      query.append(("noseen", "1"))
    }
    let (document, _) = try await fetchDocument(.get("showthread.php", query), page: "thread")
    let page = try scrape("thread") { try PageScrapers.posts(document, timeZone: configuration.timeZone) }
    note(page.probation)
    return page
  }
}
