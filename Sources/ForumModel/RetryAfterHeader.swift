import Foundation

/// HTTP's `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Read by the forum client for a wall in
/// front of the forum (`ForumWall.retryAfterSeconds`) and by the Matrix client for a homeserver's 429.
package enum RetryAfterHeader {
  /// The longest wait the header may ask for (`Clamp.day`): whoever sends it cannot park the bot for longer, and
  /// no number in it (`inf`, `1e400`, a date in the year 9999) reaches a conversion that would stop the process.
  package static let maximumSeconds: TimeInterval = Clamp.day

  /// The wait the header asks for, in seconds from `now`, within `0...maximumSeconds` (0 for a date already past,
  /// `maximumSeconds` for anything longer, infinity included); nil when it is neither form, NaN or a negative number.
  package static func seconds(_ value: String, now: Date = Date()) -> TimeInterval? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(trimmed) {
      // False for NaN as well as for negatives.
      guard seconds >= 0 else { return nil }
      return min(seconds, maximumSeconds)
    }
    guard let date = date(trimmed) else { return nil }
    return min(max(date.timeIntervalSince(now), 0), maximumSeconds)
  }

  static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), read by hand: Foundation's `DateFormatter` stops the process
  /// on some non-ASCII input (a combining mark after a digit: `scripts/fuzz retryafter` found it), and a header
  /// is ASCII. nil for anything else, including a field out of range.
  package static func date(_ text: String) -> Date? {
    let fields = text.split(separator: " ")
    guard fields.count == 6, fields[0].count == 4, fields[0].last == ",", fields[5] == "GMT" || fields[5] == "UTC",
      let day = digits(fields[1], count: 1...2), (1...31).contains(day),
      let month = months.firstIndex(of: fields[2].lowercased()).map({ $0 + 1 }),
      let year = digits(fields[3], count: 4...4)
    else { return nil }
    let time = fields[4].split(separator: ":", omittingEmptySubsequences: false)
    guard time.count == 3, let hour = digits(time[0], count: 2...2), let minute = digits(time[1], count: 2...2),
      let second = digits(time[2], count: 2...2), hour < 24, minute < 60, second <= 60
    else { return nil }
    // Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm); a 4-digit year keeps it small.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
  }

  /// A run of ASCII digits of a length in `count`, as a number; nil for anything else.
  private static func digits(_ text: Substring, count: ClosedRange<Int>) -> Int? {
    guard count.contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return text.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
