import Foundation

/// HTTP's `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Read by the forum client for a wall in
/// front of the forum (`ForumWall.retryAfterSeconds`) and by the Matrix client for a homeserver's 429.
package enum RetryAfterHeader {
  /// The wait the header asks for, in seconds from `now` (0 for a date already past); nil when it is neither form
  /// or a negative number.
  package static func seconds(_ value: String, now: Date = Date()) -> TimeInterval? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(trimmed) { return seconds >= 0 ? seconds : nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    return max(date.timeIntervalSince(now), 0)
  }
}
