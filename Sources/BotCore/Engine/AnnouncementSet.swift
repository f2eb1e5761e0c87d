import AwfulScraping

/// The current announcements with their titles (bodies come from `announcement.php`, titles from a thread list,
/// matched by order because announcements have no ids) and hashes.
struct AnnouncementSet: Sendable {
  struct Item: Sendable {
    var announcement: Announcement
    var title: String?
    var hash: String
  }

  var items: [Item]

  /// Two requests (titles, then bodies); `requests` counts each as it is made, failed ones included.
  static func fetch(from forum: any Forum, requests: inout Int) async throws -> AnnouncementSet {
    requests += 1
    let rows = try await forum.announcementRows()
    requests += 1
    let bodies = try await forum.announcements()
    let items = bodies.enumerated().map { offset, announcement in
      let title = offset < rows.count ? rows[offset].title : announcement.title
      var dated = announcement
      if dated.date == nil, offset < rows.count { dated.date = rows[offset].date }
      return Item(announcement: dated, title: title, hash: AnnouncementHash.of(dated, title: title))
    }
    return AnnouncementSet(items: items)
  }
}
