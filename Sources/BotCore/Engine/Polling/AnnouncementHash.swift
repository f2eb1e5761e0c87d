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
    let fields = [announcement.author.name.lowercased(), ForumModel.plainText(announcement.body)]
    let bytes = Array(fields.joined(separator: "\u{1F}").utf8)
    // Two FNV-1a passes with different offset bases give 128 bits: collisions are not a practical concern for
    // the handful of announcements the forum ever shows, and it needs no crypto library.
    return hex(fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325)) + hex(fnv1a(bytes, basis: 0x8422_2325_cbf2_9ce4))
  }

  private static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> UInt64 {
    var hash = basis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
