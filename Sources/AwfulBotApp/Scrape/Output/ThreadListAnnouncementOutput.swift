import AwfulScraping

/// An announcement row of a thread list (announcements have no ids).
struct ThreadListAnnouncementOutput: Encodable, Sendable {
  var title: String
  @JSONNullable var authorName: String? = nil
  @JSONNullable var authorID: String? = nil
  @JSONNullable var date: String? = nil
  @JSONNullable var icon: ThreadTagOutput? = nil

  init(_ announcement: ThreadListAnnouncement) {
    title = announcement.title
    authorName = announcement.authorName
    authorID = announcement.authorID
    date = ScrapeJSON.timestamp(announcement.date)
    icon = announcement.icon.map(ThreadTagOutput.init)
  }
}
