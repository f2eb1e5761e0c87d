import ForumModel

extension ForumsClient {
  /// The forum tree and the logged-in user (`index.php?json=1`).
  package func forumIndex() async throws -> ForumIndex {
    try await withSession {
      let data = try await fetchJSON(.get("index.php", [("json", "1")]), page: "forum index")
      return try scrape("forum index") { try PageScrapers.forumIndex(json: data) }
    }
  }

  /// Page `page` of a forum's thread list, 40 a page.
  package func threads(forumID: String, page: Int) async throws -> ThreadListPage {
    try await withSession {
      let (document, _) = try await fetchDocument(
        .get(
          "forumdisplay.php",
          [("forumid", forumID), ("perpage", String(forumPageSize)), ("pagenumber", String(page))]),
        page: "forum")
      let list = try scrape("forum") { try PageScrapers.forumThreads(document, timeZone: configuration.timeZone) }
      note(list.probation)
      return list
    }
  }

  /// The current announcements in the forum's order: bodies from `announcement.php`, titles from the announcement
  /// rows of a thread list (matched by order, as announcements have no ids).
  package func announcements() async throws -> [Announcement] {
    try await withSession {
      let rows = try await loadAnnouncementRows()
      let (document, _) = try await fetchDocument(
        .get("announcement.php", [("forumid", configuration.announcementsForumID)]), page: "announcements")
      return try scrape("announcements") {
        try PageScrapers.announcements(document, listed: rows, timeZone: configuration.timeZone)
      }
    }
  }

  /// The announcement rows (title, author, date) of a thread list.
  package func announcementRows() async throws -> [ThreadListAnnouncement] {
    try await withSession { try await loadAnnouncementRows() }
  }

  /// Page -1 of a forum lists the announcements without any thread: the cheapest page that carries them.
  private func loadAnnouncementRows() async throws -> [ThreadListAnnouncement] {
    let (document, _) = try await fetchDocument(
      .get(
        "forumdisplay.php",
        [
          ("forumid", configuration.announcementsForumID), ("perpage", String(forumPageSize)), ("pagenumber", "-1"),
        ]),
      page: "forum")
    let list = try scrape("forum") { try PageScrapers.forumThreads(document, timeZone: configuration.timeZone) }
    note(list.probation)
    return list.announcements
  }
}
