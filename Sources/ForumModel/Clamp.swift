/// Numbers read from outside the process (a forum page, an HTTP header, a homeserver's or an IRC server's answer,
/// the config) become durations and bounded integers here, clamped instead of converted: Swift stops the process on
/// `Int64(1e20)`, `Int(Double.infinity)` or an overflowing `+`, and no input may reach one of those.
package enum Clamp {
  /// A day in seconds: the longest wait anything outside may ask for (`Retry-After`, `retry_after_ms`).
  package static let day: Double = 86_400

  /// The largest count, index or page number taken from a forum page: far above any real thread
  /// (the longest have a few million posts), far below where arithmetic on it (`* 40`, `+ 1`) could overflow.
  package static let forumNumber = 1_000_000_000

  /// `seconds` as a duration within `0...maximum`, in whole milliseconds rounded up: NaN and negatives are zero,
  /// anything longer (infinity included) is `maximum`.
  package static func seconds(_ seconds: Double, atMost maximum: Double) -> Duration {
    // `!(seconds > 0)` is true for NaN too. The cap keeps the milliseconds inside Int64 whatever `maximum` is.
    guard seconds > 0 else { return .zero }
    let limited = min(seconds, maximum, 9e15)
    guard limited > 0 else { return .zero }
    return .milliseconds(Int64((limited * 1000).rounded(.up)))
  }

  /// A count, index or page number from a forum page, brought into `lower...forumNumber`.
  package static func forumNumber(_ value: Int, atLeast lower: Int = 0) -> Int {
    min(max(value, lower), forumNumber)
  }
}
