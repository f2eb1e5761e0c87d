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
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    let wait = date.timeIntervalSince(now)
    guard !wait.isNaN else { return nil }
    return min(max(wait, 0), maximumSeconds)
  }
}
