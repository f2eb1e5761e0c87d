import ForumModel

extension ForumsClient {
  /// Page `page` (1-based) of the account's bookmarked threads, 40 a page.
  package func bookmarks(page: Int) async throws -> ThreadListPage {
    try await withSession {
      let (document, _) = try await fetchDocument(
        .get(
          "bookmarkthreads.php",
          [("action", "view"), ("perpage", String(forumPageSize)), ("pagenumber", String(page))]),
        page: "bookmarks")
      let list = try scrape("bookmarks") { try PageScrapers.bookmarks(document, timeZone: configuration.timeZone) }
      note(list.probation)
      return list
    }
  }

  /// Every bookmarked thread, page after page until a page has fewer than 40 threads or is the last one.
  package func allBookmarks() async throws -> [ThreadListThread] {
    var threads: [ThreadListThread] = []
    var seen: Set<String> = []
    var page = 1
    while true {
      let list = try await bookmarks(page: page)
      let countBefore = threads.count
      for thread in list.threads where seen.insert(thread.id).inserted {
        threads.append(thread)
      }
      let isLastByCount = list.threads.count < forumPageSize
      let isLastByNavigation = list.page.map { page >= $0.total } ?? false
      // A forum that answers every page number with the same last page would otherwise keep this going forever.
      let isRepeating = threads.count == countBefore
      if isLastByCount || isLastByNavigation || isRepeating { return threads }
      page += 1
    }
  }

  /// Bookmarks a thread, then sets its star colour when one is given.
  package func addBookmark(threadID: String, star: StarColor?) async throws {
    try await withSession {
      try await submit(
        .post(
          "bookmarkthreads.php",
          form: [FormField("json", "1"), FormField("action", "add"), FormField("threadid", threadID)]))
      if let star {
        try await submit(
          .post(
            "bookmarkthreads.php",
            form: [
              FormField("threadid", threadID), FormField("action", "add"),
              FormField("category_id", String(star.rawValue)), FormField("json", "1"),
            ]))
      }
    }
  }

  package func removeBookmark(threadID: String) async throws {
    try await withSession {
      try await submit(
        .post(
          "bookmarkthreads.php",
          form: [FormField("json", "1"), FormField("action", "remove"), FormField("threadid", threadID)]))
    }
  }
}
