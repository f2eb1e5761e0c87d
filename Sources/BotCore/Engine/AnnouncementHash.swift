import AwfulScraping
import Foundation

/// Announcements have no id on the forum: one is known by a hash of its title, author, date and body text.
/// The body's text (not its HTML) is hashed so markup churn on the forum does not re-announce it.
enum AnnouncementHash {
  static func of(_ announcement: Announcement, title: String?) -> String {
    let date = announcement.date.map { String(Int64($0.timeIntervalSince1970)) } ?? ""
    let fields = [title ?? announcement.title ?? "", announcement.author.name, date, announcement.body.plainText]
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
