import ChatBridge
import ForumModel

/// The current announcements, each with its hash. One call to the forum reads them (titles come from a thread
/// list and are paired with bodies only when both agree; see `AnnouncementsScraper`); the hash never depends on
/// the title, so an announcement read once without its title and once with it is still one announcement.
struct AnnouncementSet: Sendable {
  struct Item: Sendable {
    var announcement: Announcement
    var hash: String
  }

  var items: [Item]

  /// `requests` counts the forum requests made (the list page and the announcements page), failed ones included.
  static func fetch(from forum: any Forum, requests: inout Int) async throws -> AnnouncementSet {
    requests += 2
    let announcements = try await forum.announcements()
    return AnnouncementSet(items: announcements.map { Item(announcement: $0, hash: AnnouncementHash.of($0)) })
  }
}
