import ChatBridge
import ForumModel
import Foundation

/// Announcements have no id on the forum: one is known by a hash of its author and body text, both read from the
/// announcement page itself. Not the title (it comes from a second request and may be missing or, while
/// announcements are added, not match), not the date (the list and the page show it differently). The body's text
/// (not its HTML) is hashed so markup churn on the forum does not re-announce it.
enum AnnouncementHash {
  /// The scheme of the hashes stored; a change makes the engine record the current announcements again unrelayed.
  static let scheme = "2"

  static func of(_ announcement: Announcement) -> String {
    StableHash.of([announcement.author.name.lowercased(), ForumModel.plainText(announcement.body)])
  }
}
