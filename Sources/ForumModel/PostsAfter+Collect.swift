extension PostsAfter {
  /// Every post with an index greater than `index`, read page by page through `page` (a page number in, that thread
  /// page out) from the page holding `index + 1` to the end of the thread. The one walk over a thread's pages: the
  /// HTTP client runs it inside one session, the engine's `Forum` seam over any forum's `threadPage`.
  /// It runs in the caller's isolation (the client's actor), so `load` may use the caller's state.
  package static func collect(
    threadID: String, after index: Int, isolation: isolated (any Actor)? = #isolation,
    page load: (Int) async throws -> PostsPage
  ) async throws -> PostsAfter {
    var pageNumber = max(index, 0) / forumPageSize + 1
    var pagesFetched = 0
    var posts: [Post] = []
    var seenPostIDs: Set<String> = []
    while true {
      let page = try await load(pageNumber)
      pagesFetched += 1
      let countBefore = posts.count
      for post in page.posts where post.index > index && seenPostIDs.insert(post.id).inserted {
        posts.append(post)
      }
      let shown = page.page?.current ?? pageNumber
      let hasMore: Bool
      if let navigation = page.page {
        // A thread shorter than expected answers a page past its end with its last page: `shown` stays behind.
        hasMore = shown >= pageNumber && shown < navigation.total
      } else {
        hasMore = page.posts.count >= page.postsPerPage
      }
      // A page that adds nothing after the first means the forum is repeating itself: stop rather than loop.
      let isRepeating = pagesFetched > 1 && posts.count == countBefore
      guard hasMore, !page.posts.isEmpty, !isRepeating else {
        return PostsAfter(
          threadID: page.threadID.isEmpty ? threadID : page.threadID, threadTitle: page.threadTitle,
          forumID: page.forumID, isClosed: page.isClosed, posts: posts.sorted { $0.index < $1.index },
          pagesFetched: pagesFetched, probation: page.probation)
      }
      pageNumber = shown + 1
    }
  }
}
