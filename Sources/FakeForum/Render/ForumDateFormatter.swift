import Foundation

/// Whether the viewer reads times on a 24-hour or a 12-hour clock (a forum user setting).
package enum ForumClockStyle: String, Sendable, Hashable, Codable {
  case twentyFourHour
  case twelveHour
}

/// Formats dates the way the forum prints them: English month abbreviations, days padded with a space
/// ("Jan  2"), in the forum's time zone. Hand-made rather than `DateFormatter` because the forum pads with spaces.
struct ForumDateFormatter: Sendable {
  let timeZone: TimeZone
  let clock: ForumClockStyle

  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  private struct Parts {
    var year: Int
    var month: String
    var day: Int
    var hour: Int
    var minute: Int
  }

  private func parts(_ date: Date) -> Parts {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return Parts(
      year: c.year ?? 1970, month: Self.months[(c.month ?? 1) - 1], day: c.day ?? 1, hour: c.hour ?? 0,
      minute: c.minute ?? 0)
  }

  private func spacePadded(_ value: Int) -> String { value < 10 ? " \(value)" : "\(value)" }
  private func zeroPadded(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private func time(_ p: Parts) -> String {
    switch clock {
    case .twentyFourHour:
      return "\(zeroPadded(p.hour)):\(zeroPadded(p.minute))"
    case .twelveHour:
      let hour12 = p.hour % 12 == 0 ? 12 : p.hour % 12
      return "\(spacePadded(hour12)):\(zeroPadded(p.minute)) \(p.hour < 12 ? "AM" : "PM")"
    }
  }

  /// `td.lastpost div.date`: "22:29 Jan  2, 2013" or " 7:28 PM Jan  2, 2013".
  func threadListDate(_ date: Date) -> String {
    let p = parts(date)
    return "\(time(p).trimmingLeadingSpace) \(p.month) \(spacePadded(p.day)), \(p.year)"
  }

  /// Last text of `td.postdate`: "Sep 20, 2012 11:16" or "Jan 18, 2013  7:28 PM".
  func postDate(_ date: Date) -> String {
    let p = parts(date)
    return "\(p.month) \(spacePadded(p.day)), \(p.year) \(time(p))"
  }

  /// A private-message folder's `td.date`: "Nov  8, 2012 at 21:30" or "Nov  8, 2012 at 9:30 PM".
  func privateMessageListDate(_ date: Date) -> String {
    let p = parts(date)
    return "\(p.month) \(spacePadded(p.day)), \(p.year) at \(time(p).trimmingLeadingSpace)"
  }

  /// `dd.registered`: "Sep  9, 2003".
  func registrationDate(_ date: Date) -> String {
    let p = parts(date)
    return "\(p.month) \(spacePadded(p.day)), \(p.year)"
  }

  /// The Leper's Colony's date column: "11/10/13 10:10am" (always a 12-hour clock, hour zero-padded).
  func lepersColonyDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let hour = c.hour ?? 0
    let hour12 = hour % 12 == 0 ? 12 : hour % 12
    return "\(zeroPadded(c.month ?? 1))/\(zeroPadded(c.day ?? 1))/\(zeroPadded((c.year ?? 1970) % 100)) "
      + "\(zeroPadded(hour12)):\(zeroPadded(c.minute ?? 0))\(hour < 12 ? "am" : "pm")"
  }

  /// `announcement.php` `td.postdate`: "Sep 05, 2010".
  func announcementDate(_ date: Date) -> String {
    let p = parts(date)
    return "\(p.month) \(zeroPadded(p.day)), \(p.year)"
  }
}

extension String {
  fileprivate var trimmingLeadingSpace: String { hasPrefix(" ") ? String(dropFirst()) : self }
}
